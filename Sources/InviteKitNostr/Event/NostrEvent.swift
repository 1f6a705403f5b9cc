import InviteKitCrypto

/// A NIP-01 event ([NIP-01](https://github.com/nostr-protocol/nips/blob/master/01.md)).
/// A rumor (NIP-59) is an event with `sig == nil`.
public struct NostrEvent: Sendable, Hashable {
    /// The kinds NIP-01 allows (an unsigned 16-bit range): the one owner of the bound every
    /// parser and option checks.
    public static let kindRange: ClosedRange<Int64> = 0...65535

    /// 64 lowercase hex: SHA-256 of ``canonicalSerialization``.
    public var id: String
    /// 64 lowercase hex: the author's x-only key.
    public var pubkey: String
    public var createdAt: Int64
    /// In ``NostrEvent/kindRange``.
    public var kind: Int
    public var tags: [[String]]
    public var content: String
    /// 128 lowercase hex BIP-340 signature over the id; `nil` for a rumor.
    public var sig: String?

    public init(id: String, pubkey: String, createdAt: Int64, kind: Int, tags: [[String]], content: String, sig: String?) {
        self.id = id; self.pubkey = pubkey; self.createdAt = createdAt; self.kind = kind
        self.tags = tags; self.content = content; self.sig = sig
    }

    /// The first value of the first tag named `name` (`["p", value, ...]`).
    public func firstTagValue(_ name: String) -> String? {
        tags.first { $0.count >= 2 && $0[0] == name }?[1]
    }

    /// Every value of tags named `name`.
    public func tagValues(_ name: String) -> [String] {
        tags.compactMap { $0.count >= 2 && $0[0] == name ? $0[1] : nil }
    }
}

/// The fields an author chooses; signing fills in pubkey, id and sig.
public struct EventTemplate: Sendable, Hashable {
    public var kind: Int
    public var content: String
    public var tags: [[String]]
    public var createdAt: Int64?

    public init(kind: Int, content: String, tags: [[String]] = [], createdAt: Int64? = nil) {
        self.kind = kind; self.content = content; self.tags = tags; self.createdAt = createdAt
    }
}
