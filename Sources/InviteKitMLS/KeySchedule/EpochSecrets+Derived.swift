import InviteKitCrypto

extension EpochSecrets {
    /// `MLS-Exporter(label, context, length)` (RFC 9420 §8.5):
    /// `ExpandWithLabel(DeriveSecret(exporter_secret, label), "exported", Hash(context), length)`.
    package func export(label: String, context: [UInt8], length: Int) -> SecureBytes {
        let derived = MLSCrypto.deriveSecret(secret: exporterSecret, label: label)
        return MLSCrypto.expandWithLabel(secret: derived, label: "exported", context: SHA256.hash(context), length: length)
    }

    /// `confirmation_tag = MAC(confirmation_key, confirmed_transcript_hash)` with HMAC-SHA256
    /// (RFC 9420 §6.1).
    package func confirmationTag(confirmedTranscriptHash: [UInt8]) -> [UInt8] {
        Self.confirmationTag(confirmationKey: confirmationKey, confirmedTranscriptHash: confirmedTranscriptHash)
    }

    package static func confirmationTag<K: ContiguousBytes>(confirmationKey: K, confirmedTranscriptHash: [UInt8]) -> [UInt8] {
        HMACSHA256.authenticate(confirmedTranscriptHash, key: confirmationKey)
    }

    /// Checks a received confirmation tag in constant time (RFC 9420 §6.1).
    package func verifyConfirmationTag(_ tag: [UInt8], confirmedTranscriptHash: [UInt8]) throws {
        guard ConstantTime.equals(confirmationTag(confirmedTranscriptHash: confirmedTranscriptHash), tag) else {
            throw MLSError(.invalidConfirmationTag, "confirmation tag does not match")
        }
    }

    /// The HPKE key pair `KEM.DeriveKeyPair(external_secret)` (RFC 9420 §8.3); its public half is
    /// the `external_pub` GroupInfo extension.
    package func externalKeyPair() throws -> X25519.PrivateKey {
        try HPKE.deriveKeyPair(ikm: externalSecret)
    }
}
