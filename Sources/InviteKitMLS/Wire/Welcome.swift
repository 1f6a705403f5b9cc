/// `Welcome` (RFC 9420 §12.4.3.1).
package struct Welcome: Hashable, Sendable, TLSCodable {
    package var cipherSuite: CipherSuite
    package var secrets: [EncryptedGroupSecrets]
    package var encryptedGroupInfo: [UInt8]

    package init(cipherSuite: CipherSuite, secrets: [EncryptedGroupSecrets], encryptedGroupInfo: [UInt8]) {
        self.cipherSuite = cipherSuite
        self.secrets = secrets
        self.encryptedGroupInfo = encryptedGroupInfo
    }

    package init(from reader: inout TLSReader) throws {
        cipherSuite = try CipherSuite(from: &reader)
        secrets = try reader.readVector { try EncryptedGroupSecrets(from: &$0) }
        encryptedGroupInfo = try reader.readOpaque()
    }

    package func encode(to writer: inout TLSWriter) {
        cipherSuite.encode(to: &writer)
        writer.writeVector(secrets)
        writer.writeOpaque(encryptedGroupInfo)
    }
}
