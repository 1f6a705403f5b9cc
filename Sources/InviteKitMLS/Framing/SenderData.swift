import InviteKitCrypto

/// `SenderData` (RFC 9420 §6.3.2): who sent a PrivateMessage and which key it used.
struct SenderData: Hashable, Sendable {
    var leafIndex: UInt32
    var generation: UInt32
    var reuseGuard: [UInt8]

    static let encodedCount = 12

    init(leafIndex: UInt32, generation: UInt32, reuseGuard: [UInt8]) {
        self.leafIndex = leafIndex
        self.generation = generation
        self.reuseGuard = reuseGuard
    }

    init(bytes: [UInt8]) throws {
        var r = TLSReader(bytes)
        leafIndex = try r.readUInt32()
        generation = try r.readUInt32()
        reuseGuard = try r.readBytes(4)
        try r.finish()
    }

    var bytes: [UInt8] {
        var w = TLSWriter(capacity: Self.encodedCount)
        w.writeUInt32(leafIndex)
        w.writeUInt32(generation)
        w.writeBytes(reuseGuard)
        return w.bytes
    }

    /// `sender_data_key` and `sender_data_nonce` from the first `KDF.Nh` bytes of the content
    /// ciphertext, or all of it when shorter (RFC 9420 §6.3.2).
    static func keyAndNonce(senderDataSecret: SecureBytes, ciphertext: [UInt8], suite: CipherSuite) throws -> (key: SecureBytes, nonce: SecureBytes) {
        let aead = try suite.hpke().aead
        let sample = Array(ciphertext.prefix(suite.hashLength))
        return (MLSCrypto.expandWithLabel(secret: senderDataSecret, label: "key", context: sample, length: aead.keyCount),
                MLSCrypto.expandWithLabel(secret: senderDataSecret, label: "nonce", context: sample, length: aead.nonceCount))
    }

    /// `SenderDataAAD = { opaque group_id<V>; uint64 epoch; ContentType content_type; }`.
    static func aad(groupID: [UInt8], epoch: UInt64, contentType: ContentType) -> [UInt8] {
        var w = TLSWriter(capacity: groupID.count + 16)
        w.writeOpaque(groupID)
        w.writeUInt64(epoch)
        contentType.encode(to: &w)
        return w.bytes
    }
}
