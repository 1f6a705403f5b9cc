import InviteKitCrypto

/// The secrets of one epoch (group.md §Key schedule). All derived with RFC 9420 §8 primitives.
package struct LegacyEpochSecrets: Sendable {
    package let epochSecret: SecureBytes
    package let initSecret: SecureBytes
    package let exporterSecret: SecureBytes
    package let confirmationKey: SecureBytes
    /// `MLS-Exporter("marmot", "group-event", 32)`: the ChaCha20-Poly1305 key of kind-445 content.
    package let messageKey: SecureBytes

    /// `joiner_secret = ExpandWithLabel(HKDF-Extract(init_secret[n-1], commit_secret), "joiner", GroupContext[n], 32)`.
    package static func joinerSecret(previousInitSecret: SecureBytes, commitSecret: SecureBytes, groupContext: [UInt8]) -> SecureBytes {
        let prk = HKDF.extract(salt: previousInitSecret, ikm: commitSecret)
        return MLSCrypto.expandWithLabel(secret: prk, label: "joiner", context: groupContext, length: 32)
    }

    /// `epoch_secret = ExpandWithLabel(HKDF-Extract(joiner_secret, 0^32), "epoch", GroupContext[n], 32)`
    /// (RFC 9420 §8 with no PSKs), then the DeriveSecret children.
    package init(joinerSecret: SecureBytes, groupContext: [UInt8]) {
        let prk = LegacyEpochSecrets.memberPRK(joinerSecret)
        epochSecret = MLSCrypto.expandWithLabel(secret: prk, label: "epoch", context: groupContext, length: 32)
        initSecret = MLSCrypto.deriveSecret(secret: epochSecret, label: "init")
        exporterSecret = MLSCrypto.deriveSecret(secret: epochSecret, label: "exporter")
        confirmationKey = MLSCrypto.deriveSecret(secret: epochSecret, label: "confirm")
        messageKey = LegacyEpochSecrets.export(exporterSecret, label: "marmot", context: Array("group-event".utf8), length: 32)
    }

    /// `HKDF-Extract(joiner_secret, 0^32)` (no PSKs): the input of both the epoch secret and the
    /// welcome secret.
    package static func memberPRK(_ joinerSecret: SecureBytes) -> SecureBytes {
        HKDF.extract(salt: joinerSecret, ikm: [UInt8](repeating: 0, count: 32))
    }

    /// `welcome_secret = DeriveSecret(member_prk, "welcome")`; `welcome_key = ExpandWithLabel(welcome_secret,
    /// "key", "", Nk)`, `welcome_nonce = ExpandWithLabel(welcome_secret, "nonce", "", 12)` (RFC 9420 §12.4.3.1).
    package static func welcomeKeyAndNonce(joinerSecret: SecureBytes, aead: HPKEAEAD) -> (key: SecureBytes, nonce: [UInt8]) {
        let ws = MLSCrypto.deriveSecret(secret: memberPRK(joinerSecret), label: "welcome")
        return (MLSCrypto.expandWithLabel(secret: ws, label: "key", context: [], length: aead.keyCount),
                MLSCrypto.expandWithLabel(secret: ws, label: "nonce", context: [], length: aead.nonceCount).exportBytes())
    }

    /// `MLS-Exporter(label, context, length) = ExpandWithLabel(DeriveSecret(exporter_secret, label),
    /// "exported", Hash(context), length)` (RFC 9420 §8.5).
    package static func export(_ exporterSecret: SecureBytes, label: String, context: [UInt8], length: Int) -> SecureBytes {
        let derived = MLSCrypto.deriveSecret(secret: exporterSecret, label: label)
        return MLSCrypto.expandWithLabel(secret: derived, label: "exported", context: SHA256.hash(context), length: length)
    }

    /// `confirmation_tag = HMAC-SHA256(confirmation_key, confirmed_transcript_hash)`.
    package func confirmationTag(_ confirmedTranscriptHash: [UInt8]) -> [UInt8] {
        HMACSHA256.authenticate(confirmedTranscriptHash, key: confirmationKey)
    }
}
