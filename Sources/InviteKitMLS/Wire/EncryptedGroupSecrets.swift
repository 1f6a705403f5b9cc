/// `EncryptedGroupSecrets` (RFC 9420 §12.4.3.1): `KeyPackageRef new_member; HPKECiphertext
/// encrypted_group_secrets;`.
package struct EncryptedGroupSecrets: Hashable, Sendable, TLSCodable {
    package var newMember: [UInt8]
    package var encryptedGroupSecrets: HPKECiphertext

    package init(newMember: [UInt8], encryptedGroupSecrets: HPKECiphertext) {
        self.newMember = newMember
        self.encryptedGroupSecrets = encryptedGroupSecrets
    }

    package init(from reader: inout TLSReader) throws {
        newMember = try reader.readOpaque()
        encryptedGroupSecrets = try HPKECiphertext(from: &reader)
    }

    package func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(newMember)
        encryptedGroupSecrets.encode(to: &writer)
    }
}
