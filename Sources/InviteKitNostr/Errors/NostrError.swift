import InviteKitCrypto

/// A failure in the Nostr layer. `code` is stable; `detail` never holds secret material.
public typealias NostrError = CodedFailure<NostrErrorCodes.Code>

/// The namespace of ``NostrError``'s codes.
public enum NostrErrorCodes {
    public enum Code: String, FailureCode {
        // JSON text (JSONParser); the detail names the byte where the parser stopped
        case jsonTooLarge = "json_too_large"
        case jsonTooDeep = "json_too_deep"
        case jsonInvalidUTF8 = "json_invalid_utf8"
        case jsonSyntax = "json_syntax"
        case jsonDuplicateKey = "json_duplicate_key"
        case jsonTrailingData = "json_trailing_data"
        /// JSON that is valid but not the RFC 8785 canonical form required where bytes are compared
        /// (`NostrEvent.init(canonicalJSON:maxBytes:)`).
        case jsonNotCanonical = "json_not_canonical"
        // NIP-01 events
        case malformedJSON = "event_malformed_json"
        case tooLarge = "event_too_large"
        case missingField = "event_missing_field"
        case invalidField = "event_invalid_field"
        case invalidId = "event_invalid_id"
        case invalidSignature = "event_invalid_signature"
        case invalidKey = "invalid_key"
        // NIP-19
        case invalidBech32 = "nip19_invalid_bech32"
        case invalidChecksum = "nip19_invalid_checksum"
        case unexpectedPrefix = "nip19_unexpected_prefix"
        case invalidTLV = "nip19_invalid_tlv"
        // NIP-44
        case unsupportedVersion = "nip44_unsupported_version"
        case invalidPayload = "nip44_invalid_payload"
        case invalidMAC = "nip44_invalid_mac"
        case invalidPadding = "nip44_invalid_padding"
        case invalidPlaintextLength = "nip44_invalid_plaintext_length"
        case invalidConversationKey = "nip44_invalid_conversation_key"
        // NIP-59
        case wrongKind = "nip59_wrong_kind"
        case senderMismatch = "nip59_sender_mismatch"
        case rumorIdMismatch = "nip59_rumor_id_mismatch"
        case notForRecipient = "nip59_not_for_recipient"
    }
}
