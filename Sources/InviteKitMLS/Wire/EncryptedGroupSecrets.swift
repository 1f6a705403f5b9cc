/// `EncryptedGroupSecrets` (RFC 9420 §12.4.3.1): `KeyPackageRef new_member; HPKECiphertext
/// encrypted_group_secrets;`.
public struct EncryptedGroupSecrets: Hashable, Sendable, TLSCodable {
    public var newMember: [UInt8]
    public var encryptedGroupSecrets: HPKECiphertext

    public init(newMember: [UInt8], encryptedGroupSecrets: HPKECiphertext) {
        self.newMember = newMember
        self.encryptedGroupSecrets = encryptedGroupSecrets
    }

    public init(from reader: inout TLSReader) throws {
        newMember = try reader.readOpaque()
        encryptedGroupSecrets = try HPKECiphertext(from: &reader)
    }

    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(newMember)
        encryptedGroupSecrets.encode(to: &writer)
    }
}
