/// The one error shape of every layer: a stable `code` and a `detail` for logs.
///
/// Each module names its own instance (`public typealias MLSError = CodedFailure<MLSErrorCodes.Code>`),
/// so call sites read `MLSError(.truncated, "…")`, `MLSError.Code.truncated` and
/// `catch let e as MLSError`, and typed throws (`throws(MLSError)`) keep one error per layer.
/// `detail` never holds secret material.
public struct CodedFailure<C: FailureCode>: Error, Hashable, Sendable, CustomStringConvertible {
    /// The module's code enum.
    public typealias Code = C

    /// What failed.
    public let code: Code
    /// More context for logs; never secret material.
    public let detail: String

    /// A failure with `code` and an optional `detail`.
    public init(_ code: Code, _ detail: String = "") {
        self.code = code
        self.detail = detail
    }

    /// `code: detail`, or just `code`.
    public var description: String { detail.isEmpty ? code.rawValue : "\(code.rawValue): \(detail)" }
}

extension CodedFailure: CodedError {
    public var codeName: String { code.rawValue }
}
