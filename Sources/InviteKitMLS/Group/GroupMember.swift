import InviteKitCrypto

/// One roster entry: the Nostr identity, the leaf keys and the admin flag.
///
/// Wire form: `opaque identity<V>; opaque encryption_key<V>; opaque signature_key<V>; uint8 is_admin;`
public struct GroupMember: Hashable, Sendable, TLSCodable {
    /// The 32-byte Nostr x-only public key.
    public var identity: [UInt8]
    /// X25519 public key commit secrets are sealed to.
    public var encryptionKey: [UInt8]
    /// Ed25519 key that signs this member's group events.
    public var signatureKey: [UInt8]
    public var isAdmin: Bool

    public init(identity: [UInt8], encryptionKey: [UInt8], signatureKey: [UInt8], isAdmin: Bool) {
        self.identity = identity
        self.encryptionKey = encryptionKey
        self.signatureKey = signatureKey
        self.isAdmin = isAdmin
    }

    public init(from reader: inout TLSReader) throws {
        identity = try reader.readOpaque()
        encryptionKey = try reader.readOpaque()
        signatureKey = try reader.readOpaque()
        switch try reader.readUInt8() {
        case 0: isAdmin = false
        case 1: isAdmin = true
        case let v: throw MLSError(.invalidValue, "is_admin \(v)")
        }
        guard identity.count == 32, encryptionKey.count == 32, signatureKey.count == 32 else {
            throw MLSError(.invalidKey, "member keys must be 32 bytes")
        }
    }

    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(identity)
        writer.writeOpaque(encryptionKey)
        writer.writeOpaque(signatureKey)
        writer.writeUInt8(isAdmin ? 1 : 0)
    }

    /// `member_hash = SHA-256(Member)`; the roster hash is over these (group.md §Roster).
    var hash: [UInt8] { SHA256.hash(tlsSerialized) }
}
