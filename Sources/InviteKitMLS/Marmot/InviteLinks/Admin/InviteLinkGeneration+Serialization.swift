import InviteKitCrypto

extension InviteLinkGeneration {
    /// Version 1 of a generation's stored form, sealed because it holds the inbox private key,
    /// the bearer and the preview key (PROTOCOL §5.14.15): the entry, the code, the preview (empty
    /// for a granted generation) and the inbox key.
    static let envelope = VersionedEnvelope("invite link generation", version: 1)

    /// The generation as zeroizing bytes.
    public func serialized() -> SecureBytes {
        Self.envelope.seal(capacity: 1024 + (preview?.image.count ?? 0)) { w in
            w.writeOpaque(entry.encoded)
            w.writeOpaque(code.encoded)
            w.writeOpaque(preview?.encoded ?? [])
            inboxPrivateKey.withUnsafeBytes { w.writeOpaque(Array($0)) }
        }
    }

    /// Reads ``serialized()``: every part is decoded strictly, the inbox key must derive the
    /// entry's inbox, the code must open the entry and the preview must match its commitment
    /// (`invalid_value` otherwise).
    public init(serialized data: SecureBytes) throws {
        let (entry, code, preview, key) = try Self.envelope.open(data) { _, r in
            let entry = try InviteLinkV1(decoding: try r.readOpaque())
            let code = try InviteCodeV1(decoding: try r.readOpaque())
            let previewBytes = try r.readOpaque()
            let preview = previewBytes.isEmpty ? nil : try InvitePreviewV1(decoding: previewBytes)
            let key = SecureBytes(copying: try InviteLinkCodec.readOpaque(&r, 32...32, .invalidValue, "inbox private key"))
            return (entry, code, preview, key)
        }
        let inbox = try Secp256k1.PrivateKey(rawRepresentation: key)
        guard inbox.publicKey.rawRepresentation == entry.inboxPublicKey, code.inboxPublicKey == entry.inboxPublicKey,
              code.linkID == entry.linkID, ConstantTime.equals(code.bearerHash, entry.bearerHash) else {
            throw MLSError(.invalidValue, "a stored invite link generation whose key or code does not open its entry")
        }
        if let preview, preview.previewHash != entry.previewHash {
            throw MLSError(.invalidValue, "a stored invite link generation whose preview is not its entry's")
        }
        self.init(entry: entry, code: code, preview: preview, inboxPrivateKey: key)
    }
}
