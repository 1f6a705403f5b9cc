import InviteKitCrypto

/// `PathSecret` (RFC 9420 §12.4.3.1): `opaque path_secret<V>;`, held in zeroizing storage.
package struct PathSecret: Sendable, TLSCodable {
    package let secret: SecureBytes

    package init(_ secret: SecureBytes) { self.secret = secret }

    package init(from reader: inout TLSReader) throws {
        var bytes = try reader.readOpaque()
        defer { zeroize(&bytes) }
        secret = SecureBytes(copying: bytes)
    }

    package func encode(to writer: inout TLSWriter) {
        secret.withUnsafeBytes { writer.writeOpaque($0) }
    }
}
