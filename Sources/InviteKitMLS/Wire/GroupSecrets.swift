import InviteKitCrypto

/// `GroupSecrets` (RFC 9420 §12.4.3.1): what a Welcome encrypts to each joiner's init key.
package struct GroupSecrets: Sendable, TLSCodable {
    package let joinerSecret: SecureBytes
    package let pathSecret: PathSecret?
    package let psks: [PreSharedKeyID]

    package init(joinerSecret: SecureBytes, pathSecret: PathSecret?, psks: [PreSharedKeyID] = []) {
        self.joinerSecret = joinerSecret
        self.pathSecret = pathSecret
        self.psks = psks
    }

    package init(from reader: inout TLSReader) throws {
        var js = try reader.readOpaque()
        defer { zeroize(&js) }
        joinerSecret = SecureBytes(copying: js)
        pathSecret = try reader.readOptional { try PathSecret(from: &$0) }
        psks = try reader.readVector { try PreSharedKeyID(from: &$0) }
    }

    package func encode(to writer: inout TLSWriter) {
        joinerSecret.withUnsafeBytes { writer.writeOpaque($0) }
        writer.writeOptional(pathSecret)
        writer.writeVector(psks)
    }

    /// The serialization in zeroizing storage.
    package var secureSerialization: SecureBytes {
        var w = TLSWriter(capacity: 128)
        encode(to: &w)
        var bytes = w.takeBytes()
        defer { zeroize(&bytes) }
        return SecureBytes(copying: bytes)
    }
}
