/// A Welcome (group.md §Welcome):
/// `uint16 cipher_suite; opaque key_package_ref<V>; HPKECiphertext encrypted_joiner_secret;
/// opaque encrypted_group_info<V>;` where
/// `encrypted_joiner_secret = EncryptWithLabel(init_key, "InviteKit Welcome", key_package_ref, joiner_secret)`
/// and `encrypted_group_info` = the suite's AEAD of the GroupInfo under the welcome key and nonce
/// (RFC 9420 §12.4.3.1 style). The GroupInfo is encrypted once per commit and shared by every
/// joiner's Welcome.
public struct LegacyWelcome: Hashable, Sendable, TLSCodable {
    public var cipherSuite: CipherSuite
    public var keyPackageRef: [UInt8]
    public var encryptedJoinerSecret: HPKECiphertext
    public var encryptedGroupInfo: [UInt8]

    public init(cipherSuite: CipherSuite, keyPackageRef: [UInt8], encryptedJoinerSecret: HPKECiphertext, encryptedGroupInfo: [UInt8]) {
        self.cipherSuite = cipherSuite
        self.keyPackageRef = keyPackageRef
        self.encryptedJoinerSecret = encryptedJoinerSecret
        self.encryptedGroupInfo = encryptedGroupInfo
    }

    public init(from reader: inout TLSReader) throws {
        cipherSuite = try CipherSuite(from: &reader)
        keyPackageRef = try reader.readOpaque()
        encryptedJoinerSecret = try HPKECiphertext(from: &reader)
        encryptedGroupInfo = try reader.readOpaque()
    }

    public func encode(to writer: inout TLSWriter) {
        cipherSuite.encode(to: &writer)
        writer.writeOpaque(keyPackageRef)
        encryptedJoinerSecret.encode(to: &writer)
        writer.writeOpaque(encryptedGroupInfo)
    }

    static let label = "InviteKit Welcome"
}
