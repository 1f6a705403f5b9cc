/// A failure in the crypto layer. `code` is stable; `detail` never holds secret material.
public typealias CryptoError = CodedFailure<CryptoErrorCodes.Code>

/// The namespace of ``CryptoError``'s codes.
public enum CryptoErrorCodes {
    public enum Code: String, FailureCode {
        case invalidPrivateKey = "invalid_private_key"
        case invalidPublicKey = "invalid_public_key"
        case invalidSignature = "invalid_signature"
        case invalidLength = "invalid_length"
        case authenticationFailed = "authentication_failed"
        case backendFailure = "backend_failure"
    }
}
