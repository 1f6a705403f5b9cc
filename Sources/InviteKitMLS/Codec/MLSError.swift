import InviteKitCrypto

/// Errors from the MLS codec, KeyPackages, their events and the MLS crypto helpers.
public typealias MLSError = CodedFailure<MLSErrorCodes.Code>

/// The namespace of ``MLSError``'s codes.
public enum MLSErrorCodes {
    /// Stable machine-readable reasons.
    public enum Code: String, FailureCode {
        /// Input ended before a field was complete.
        case truncated
        /// A variable-length integer used the reserved `0b11` prefix (RFC 9420 §2.1.2).
        case invalidVarint = "invalid_varint"
        /// A variable-length integer was not minimally encoded (RFC 9420 §2.1.2).
        case nonMinimalVarint = "non_minimal_varint"
        /// Bytes were left over after a structure or vector was parsed.
        case trailingBytes = "trailing_bytes"
        /// A field had a value this implementation does not accept.
        case invalidValue = "invalid_value"
        /// A value is too large to encode.
        case tooLarge = "too_large"
        /// The cipher suite is not supported.
        case unsupportedCipherSuite = "unsupported_cipher_suite"
        /// A key had the wrong length or was not a valid point.
        case invalidKey = "invalid_key"
        /// An AEAD or HPKE open failed.
        case decryptionFailed = "decryption_failed"
        /// A signature did not verify.
        case invalidSignature = "invalid_signature"
        /// A KeyPackage event failed validation.
        case invalidEvent = "invalid_event"
        /// A KeyPackage is outside its lifetime.
        case expired
        /// The credential does not match the event author.
        case credentialMismatch = "credential_mismatch"
        /// A store operation failed.
        case storage
        /// Not found in a store.
        case notFound = "not_found"
    }

}
