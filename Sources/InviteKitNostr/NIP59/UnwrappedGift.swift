import InviteKitCrypto

/// What a gift wrap held, after every NIP-59 check passed.
public struct UnwrappedGift: Sendable, Hashable {
    /// The seal's author: the real sender (the wrap's key is a throwaway).
    public let sender: Secp256k1.XOnlyPublicKey
    /// The unsigned inner event; its id has been recomputed and its pubkey equals `sender`.
    public let rumor: NostrEvent
    public let seal: NostrEvent
    public let wrap: NostrEvent
}
