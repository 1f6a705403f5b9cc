/// `ParentNode` (RFC 9420 §7.1): `HPKEPublicKey encryption_key; opaque parent_hash<V>;
/// uint32 unmerged_leaves<V>;`.
package struct ParentNode: Hashable, Sendable, TLSCodable {
    package var encryptionKey: [UInt8]
    package var parentHash: [UInt8]
    /// Leaf indices, in ascending order.
    package var unmergedLeaves: [UInt32]

    package init(encryptionKey: [UInt8], parentHash: [UInt8], unmergedLeaves: [UInt32]) {
        self.encryptionKey = encryptionKey
        self.parentHash = parentHash
        self.unmergedLeaves = unmergedLeaves
    }

    package init(from reader: inout TLSReader) throws {
        encryptionKey = try reader.readOpaque()
        parentHash = try reader.readOpaque()
        unmergedLeaves = try reader.readVector { try $0.readUInt32() }
    }

    package func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(encryptionKey)
        writer.writeOpaque(parentHash)
        writer.writeVector { w in for l in unmergedLeaves { w.writeUInt32(l) } }
    }
}
