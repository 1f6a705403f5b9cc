/// A failure in the crypto layer. `code` is stable; `detail` never holds secret material.
public struct CryptoError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable, CaseIterable {
        case invalidPrivateKey = "invalid_private_key"
        case invalidPublicKey = "invalid_public_key"
        case invalidSignature = "invalid_signature"
        case invalidLength = "invalid_length"
        case authenticationFailed = "authentication_failed"
        case backendFailure = "backend_failure"
    }

    public let code: Code
    public let detail: String

    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "\(code.rawValue): \(detail)" }
}
