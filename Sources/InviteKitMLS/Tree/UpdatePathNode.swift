/// `UpdatePathNode` (RFC 9420 §7.6): `HPKEPublicKey encryption_key; HPKECiphertext encrypted_path_secret<V>;`.
package struct UpdatePathNode: Hashable, Sendable, TLSCodable {
    package var encryptionKey: [UInt8]
    /// One ciphertext per node in the copath child's filtered resolution, in resolution order.
    package var encryptedPathSecret: [HPKECiphertext]

    package init(encryptionKey: [UInt8], encryptedPathSecret: [HPKECiphertext]) {
        self.encryptionKey = encryptionKey
        self.encryptedPathSecret = encryptedPathSecret
    }

    package init(from reader: inout TLSReader) throws {
        encryptionKey = try reader.readOpaque()
        encryptedPathSecret = try reader.readVector { try HPKECiphertext(from: &$0) }
    }

    package func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(encryptionKey)
        writer.writeVector(encryptedPathSecret)
    }
}
