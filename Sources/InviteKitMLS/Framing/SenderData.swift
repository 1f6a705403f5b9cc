import InviteKitCrypto

/// `SenderData` (RFC 9420 §6.3.2): who sent a PrivateMessage and which key it used.
package struct SenderData: Hashable, Sendable {
    package var leafIndex: UInt32
    package var generation: UInt32
    package var reuseGuard: [UInt8]

    package static let encodedCount = 12

    package init(leafIndex: UInt32, generation: UInt32, reuseGuard: [UInt8]) {
        self.leafIndex = leafIndex
        self.generation = generation
        self.reuseGuard = reuseGuard
    }

    package init(bytes: [UInt8]) throws {
        var r = TLSReader(bytes)
        leafIndex = try r.readUInt32()
        generation = try r.readUInt32()
        reuseGuard = try r.readBytes(4)
        try r.finish()
    }

    package var bytes: [UInt8] {
        var w = TLSWriter(capacity: Self.encodedCount)
        w.writeUInt32(leafIndex)
        w.writeUInt32(generation)
        w.writeBytes(reuseGuard)
        return w.bytes
    }

    /// `sender_data_key` and `sender_data_nonce` from the first `KDF.Nh` bytes of the content
    /// ciphertext, or all of it when shorter (RFC 9420 §6.3.2).
    package static func keyAndNonce(senderDataSecret: SecureBytes, ciphertext: [UInt8], suite: CipherSuite) throws -> (key: SecureBytes, nonce: SecureBytes) {
        let aead = try suite.hpke().aead
        let sample = Array(ciphertext.prefix(suite.hashLength))
        return (MLSCrypto.expandWithLabel(secret: senderDataSecret, label: "key", context: sample, length: aead.keyCount),
                MLSCrypto.expandWithLabel(secret: senderDataSecret, label: "nonce", context: sample, length: aead.nonceCount))
    }

    /// `SenderDataAAD = { opaque group_id<V>; uint64 epoch; ContentType content_type; }`.
    package static func aad(groupID: [UInt8], epoch: UInt64, contentType: ContentType) -> [UInt8] {
        var w = TLSWriter(capacity: groupID.count + 16)
        w.writeOpaque(groupID)
        w.writeUInt64(epoch)
        contentType.encode(to: &w)
        return w.bytes
    }
}
