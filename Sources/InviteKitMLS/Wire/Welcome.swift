/// `Welcome` (RFC 9420 §12.4.3.1).
public struct Welcome: Hashable, Sendable, TLSCodable {
    public var cipherSuite: CipherSuite
    public var secrets: [EncryptedGroupSecrets]
    public var encryptedGroupInfo: [UInt8]

    public init(cipherSuite: CipherSuite, secrets: [EncryptedGroupSecrets], encryptedGroupInfo: [UInt8]) {
        self.cipherSuite = cipherSuite
        self.secrets = secrets
        self.encryptedGroupInfo = encryptedGroupInfo
    }

    public init(from reader: inout TLSReader) throws {
        cipherSuite = try CipherSuite(from: &reader)
        secrets = try reader.readVector { try EncryptedGroupSecrets(from: &$0) }
        encryptedGroupInfo = try reader.readOpaque()
    }

    public func encode(to writer: inout TLSWriter) {
        cipherSuite.encode(to: &writer)
        writer.writeVector(secrets)
        writer.writeOpaque(encryptedGroupInfo)
    }
}
