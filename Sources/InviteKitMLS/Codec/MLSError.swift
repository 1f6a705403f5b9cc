import InviteKitCrypto

/// Errors from the MLS codec, KeyPackages, their events and the MLS crypto helpers.
public struct MLSError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable machine-readable reasons.
    public enum Code: String, Sendable, CaseIterable {
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
        /// A KeyPackage is past its `not_after` (plus the allowed skew).
        case expired
        /// A KeyPackage is before its `not_before` (minus the allowed skew).
        case notYetValid = "not_yet_valid"
        /// A KeyPackage event's `relays` tag is missing, empty or holds a non-relay URL.
        case invalidRelays = "invalid_relays"
        /// A Marmot Group Data extension (0xf2ee) is malformed (MIP-01).
        case invalidGroupData = "invalid_group_data"
        /// A commit by a non-admin that is not a pure self-update or SelfRemove (MIP-03).
        case notAdmin = "not_admin"
        /// An own commit was overtaken by another commit for its epoch before it was confirmed.
        case staleCommit = "stale_commit"
        /// `confirmPublished` without an acknowledging relay.
        case commitNotPublished = "commit_not_published"
        /// This member was removed and can neither read nor send.
        case notAMember = "not_a_member"
        /// A kind-445 event of another group.
        case wrongGroup = "wrong_group"
        /// A Welcome is malformed, for someone else, or not from an admin.
        case invalidWelcome = "invalid_welcome"
        /// The credential does not match the event author.
        case credentialMismatch = "credential_mismatch"
        /// A store operation failed.
        case storage
        /// Not found in a store.
        case notFound = "not_found"
    }

    public let code: Code
    public let detail: String

    public init(_ code: Code, _ detail: String = "") {
        self.code = code
        self.detail = detail
    }

    public var description: String { detail.isEmpty ? code.rawValue : "\(code.rawValue): \(detail)" }
}

extension MLSError: CodedError { public var codeName: String { code.rawValue } }
