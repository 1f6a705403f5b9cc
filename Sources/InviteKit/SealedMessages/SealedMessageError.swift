import InviteKitCrypto

/// Why an opened gift wrap is not a usable InviteKit message. `code` is stable.
public struct SealedMessageError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable, CaseIterable {
        case malformed = "sealed_malformed"
        case unsupportedVersion = "sealed_unsupported_version"
        /// The payload names an author other than the gift's sender (spoofing).
        case senderMismatch = "sealed_sender_mismatch"
        case missingContentType = "sealed_missing_content_type"
    }
    public let code: Code
    public let detail: String
    public init(_ code: Code, _ detail: String) { self.code = code; self.detail = detail }
    public var description: String { "\(code.rawValue): \(detail)" }
}

extension SealedMessageError: CodedError { public var codeName: String { code.rawValue } }
