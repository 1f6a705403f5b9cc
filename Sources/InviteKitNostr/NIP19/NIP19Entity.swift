import InviteKitCrypto

/// A NIP-19 entity ([NIP-19](https://github.com/nostr-protocol/nips/blob/master/19.md)).
public enum NIP19Entity: Sendable {
    case npub(Secp256k1.XOnlyPublicKey)
    /// The secret stays in zeroizing storage.
    case nsec(SecureBytes)
    /// Event id (32 bytes).
    case note([UInt8])
    case nprofile(NProfile)
    case nevent(NEvent)
    case naddr(NAddr)

    public struct NProfile: Sendable, Hashable {
        public var pubkey: [UInt8]
        public var relays: [String]
        public init(pubkey: [UInt8], relays: [String] = []) { self.pubkey = pubkey; self.relays = relays }
    }

    public struct NEvent: Sendable, Hashable {
        public var id: [UInt8]
        public var relays: [String]
        public var author: [UInt8]?
        public var kind: UInt32?
        public init(id: [UInt8], relays: [String] = [], author: [UInt8]? = nil, kind: UInt32? = nil) {
            self.id = id; self.relays = relays; self.author = author; self.kind = kind
        }
    }

    public struct NAddr: Sendable, Hashable {
        public var identifier: String
        public var relays: [String]
        public var author: [UInt8]
        public var kind: UInt32
        public init(identifier: String, relays: [String] = [], author: [UInt8], kind: UInt32) {
            self.identifier = identifier; self.relays = relays; self.author = author; self.kind = kind
        }
    }
}
