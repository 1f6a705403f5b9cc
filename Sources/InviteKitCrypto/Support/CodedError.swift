/// An error with a stable code and a detail safe to show (no secret material). Every layer's
/// error type conforms, so tools can report any of them the same way.
public protocol CodedError: Error {
    /// The stable snake_case code.
    var codeName: String { get }
    var detail: String { get }
}

extension CryptoError: CodedError { public var codeName: String { code.rawValue } }
