import InviteKitCrypto

extension MLSGroupState {
    /// `MLS-Exporter(label, context, length) = ExpandWithLabel(DeriveSecret(exporter_secret, label),
    /// "exported", Hash(context), length)` (RFC 9420 §8.5).
    public func exporter(label: String, context: [UInt8], length: Int) -> SecureBytes {
        let derived = MLSCrypto.deriveSecret(secret: epochSecrets.exporterSecret, label: label)
        return MLSCrypto.expandWithLabel(secret: derived, label: "exported", context: SHA256.hash(context), length: length)
    }
}
