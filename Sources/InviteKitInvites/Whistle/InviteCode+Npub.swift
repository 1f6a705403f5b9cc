import InviteKitCrypto
import InviteKitNostr

extension InviteCode {
    /// `true` when `npub` is a NIP-19 `npub` (no `nostr:` prefix) of a valid x-only key.
    static func isValidNpub(_ npub: String) -> Bool {
        npubKey(npub) != nil
    }

    static func npubKey(_ npub: String) -> Secp256k1.XOnlyPublicKey? {
        guard npub.lowercased().hasPrefix("npub1"), case .npub(let key)? = try? NIP19.decode(npub) else { return nil }
        return key
    }

    /// The inviter's public key.
    public var inviterKey: Secp256k1.XOnlyPublicKey? { Self.npubKey(inviterNpub) }

    /// A code for `inviter` (npub computed here, so it is always valid).
    public init(relay: String, inviter: Secp256k1.XOnlyPublicKey, groupId: String) {
        self.init(relay: relay, inviterNpub: NIP19.npub(inviter), groupId: groupId)
    }
}
