import InviteKitCrypto

/// The MLS exporter (RFC 9420 §8.5) for the Marmot keys derived from an epoch.
package enum MarmotExporter {
    /// `MLS-Exporter(label, context, length) = ExpandWithLabel(DeriveSecret(exporter_secret, label),
    /// "exported", Hash(context), length)` (RFC 9420 §8.5), for suites 0x0001 and 0x0003 (SHA-256).
    package static func export(exporterSecret: SecureBytes, label: String, context: [UInt8], length: Int) -> SecureBytes {
        let derived = MLSCrypto.deriveSecret(secret: exporterSecret, label: label)
        return MLSCrypto.expandWithLabel(secret: derived, label: "exported", context: SHA256.hash(context), length: length)
    }

    /// The kind-445 content key of an epoch: `MLS-Exporter("marmot", "group-event", 32)` (MIP-03).
    package static func groupEventKey(exporterSecret: SecureBytes) -> SecureBytes {
        export(exporterSecret: exporterSecret, label: MarmotProfile.groupEventExporterLabel,
               context: MarmotProfile.groupEventExporterContext, length: MarmotProfile.groupEventKeyLength)
    }
}
