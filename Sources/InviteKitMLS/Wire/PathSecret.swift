import InviteKitCrypto

/// `PathSecret` (RFC 9420 §12.4.3.1): `opaque path_secret<V>;`, held in zeroizing storage.
public struct PathSecret: Sendable, TLSCodable {
    public let secret: SecureBytes

    public init(_ secret: SecureBytes) { self.secret = secret }

    public init(from reader: inout TLSReader) throws {
        var bytes = try reader.readOpaque()
        defer { zeroize(&bytes) }
        secret = SecureBytes(copying: bytes)
    }

    public func encode(to writer: inout TLSWriter) {
        secret.withUnsafeBytes { writer.writeOpaque($0) }
    }
}
