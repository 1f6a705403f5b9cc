/// `UpdatePathNode` (RFC 9420 §7.6): `HPKEPublicKey encryption_key; HPKECiphertext encrypted_path_secret<V>;`.
public struct UpdatePathNode: Hashable, Sendable, TLSCodable {
    public var encryptionKey: [UInt8]
    /// One ciphertext per node in the copath child's filtered resolution, in resolution order.
    public var encryptedPathSecret: [HPKECiphertext]

    public init(encryptionKey: [UInt8], encryptedPathSecret: [HPKECiphertext]) {
        self.encryptionKey = encryptionKey
        self.encryptedPathSecret = encryptedPathSecret
    }

    public init(from reader: inout TLSReader) throws {
        encryptionKey = try reader.readOpaque()
        encryptedPathSecret = try reader.readVector { try HPKECiphertext(from: &$0) }
    }

    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(encryptionKey)
        writer.writeVector(encryptedPathSecret)
    }
}
