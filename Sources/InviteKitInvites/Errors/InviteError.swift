import InviteKitCrypto

/// Every failure in the invite layer: a stable `code`, a `detail` for logs (never secret
/// material), a user-facing `message` that says no more than any reader of the invite may
/// learn, and whether trying again later can help (`isRetryable`).
public typealias InviteError = CodedFailure<InviteErrorCodes.Code>

/// The namespace of ``InviteError``'s codes.
public enum InviteErrorCodes {
    /// Stable snake_case identifiers; safe to log, match on and show in `--json` output.
    public enum Code: String, FailureCode {
        // Transport: the text that carries an invite.
        case inputTooLarge = "input_too_large"
        case invalidEncoding = "invalid_encoding"
        case unrecognizedURL = "unrecognized_url"
        // Whistle invite code content.
        case invalidJSON = "invalid_json"
        case jsonTooDeep = "json_too_deep"
        case missingKey = "missing_key"
        case duplicateKey = "duplicate_key"
        case nonStringValue = "non_string_value"
        case invalidNpub = "invalid_npub"
        case invalidApprovalURL = "invalid_approval_url"
        case invalidPublicKey = "invalid_public_key"
        // Signed invite framing.
        case decompressionFailed = "decompression_failed"
        case decompressedTooLarge = "decompressed_too_large"
        case compressionRatioExceeded = "compression_ratio_exceeded"
        case sizeMismatch = "size_mismatch"
        case malformedProtobuf = "malformed_protobuf"
        /// More relays than ``InvitePayload/maxRelays`` (PROTOCOL §3.2).
        case tooManyRelays = "too_many_relays"
        // Protobuf wire format (``ProtobufError``): each way hostile bytes can be wrong.
        case truncatedVarint = "truncated_varint"
        case overlongVarint = "overlong_varint"
        case truncatedFixed = "truncated_fixed"
        case lengthPastEnd = "length_past_end"
        case wrongWireType = "wrong_wire_type"
        case groupWireType = "group_wire_type"
        case invalidWireType = "invalid_wire_type"
        case invalidFieldNumber = "invalid_field_number"
        case invalidUTF8 = "invalid_utf8"
        case invalidPayload = "invalid_payload"
        // Authenticity.
        case invalidSignature = "invalid_signature"
        case creatorMismatch = "creator_mismatch"
        // Conversation token.
        case tokenMalformed = "token_malformed"
        case tokenUnsupportedVersion = "token_unsupported_version"
        case tokenDecryptionFailed = "token_decryption_failed"
        // Validation outcomes.
        case inviteExpired = "invite_expired"
        case conversationExpired = "conversation_expired"
        case conversationNotFound = "conversation_not_found"
        case inviteRevoked = "invite_revoked"
        case inviteAlreadyUsed = "invite_already_used"
        case storeUnavailable = "store_unavailable"
        // Creating invites.
        case invalidArgument = "invalid_argument"
        case invalidRelay = "invalid_relay"
    }
}

extension CodedFailure where C == InviteErrorCodes.Code {
    /// The sentence to show a person. It depends only on `code`, never on `detail`.
    public var message: String { code.message }

    /// `true` when the same request may succeed later without a new invite.
    public var isRetryable: Bool { code.isRetryable }
}

extension InviteErrorCodes.Code {
    /// The user-facing sentence for this code.
    ///
    /// Everything that makes an invite unreadable or untrustworthy shares one sentence: a person
    /// holding a forged or damaged invite learns that it is invalid, not which check failed, so
    /// the messages cannot serve as an oracle for crafting forgeries. Expiry, revocation and
    /// use are only reported for invites whose signature checked out.
    public var message: String {
        switch self {
        case .inputTooLarge, .invalidEncoding, .unrecognizedURL, .invalidJSON, .jsonTooDeep, .missingKey,
             .duplicateKey, .nonStringValue, .invalidNpub, .decompressionFailed,
             .decompressedTooLarge, .compressionRatioExceeded, .sizeMismatch, .malformedProtobuf, .tooManyRelays,
             .truncatedVarint, .overlongVarint, .truncatedFixed, .lengthPastEnd, .wrongWireType, .groupWireType,
             .invalidWireType, .invalidFieldNumber, .invalidUTF8,
             .invalidPayload, .invalidSignature, .tokenMalformed, .tokenUnsupportedVersion,
             .tokenDecryptionFailed:
            return "This invite is invalid"
        case .invalidApprovalURL, .invalidPublicKey:
            return "This approval link is invalid"
        case .creatorMismatch:
            return "This invite was not created by the expected person"
        case .inviteExpired:
            return "This invite has expired"
        case .conversationExpired, .conversationNotFound:
            return "This conversation is no longer available"
        case .inviteRevoked:
            return "This invite is no longer valid"
        case .inviteAlreadyUsed:
            return "This invite was already used"
        case .storeUnavailable:
            return "This invite couldn't be checked right now. Try again later"
        case .invalidArgument, .invalidRelay:
            return "The invite could not be created"
        }
    }

    /// Only an unavailable consumed-tag store is transient; every other failure is a property
    /// of the invite itself and retrying the same invite cannot help.
    public var isRetryable: Bool { self == .storeUnavailable }
}
