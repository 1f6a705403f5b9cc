import InviteKitCrypto

/// NIP-59 seal and gift wrap ([NIP-59](https://github.com/nostr-protocol/nips/blob/master/59.md)).
///
/// wrap (kind 1059, one-time key, `["p", recipient]`) ⊃ NIP-44 ⊃ seal (kind 13, sender, no tags)
/// ⊃ NIP-44 ⊃ rumor (unsigned event).
public enum GiftWrap {
    public static let sealKind = 13
    public static let wrapKind = 1059
    /// A NIP-17 chat message (kind 14): the usual rumor inside a wrap, and the one the benchmarks wrap.
    public static let chatMessageKind = 14
    /// Seal and wrap timestamps are each drawn uniformly from `[now - 2 days, now]`.
    public static let maxBackdate: Int64 = 2 * 24 * 60 * 60

    /// Seals `rumor` from `sender` and wraps it for `recipient` under a fresh one-time key.
    /// `rumor.pubkey` must be the sender's key.
    public static func wrap(
        _ rumor: NostrEvent, from sender: Secp256k1.PrivateKey, to recipient: Secp256k1.XOnlyPublicKey,
        extraTags: [[String]] = [], now: Int64 = UnixTime.now(), using rng: RandomSource = SystemRandom()
    ) throws -> NostrEvent {
        let sealKey = try NIP44.ConversationKey(privateKey: sender, publicKey: recipient)
        return try wrap(rumor, from: sender, to: recipient, sealKey: sealKey, extraTags: extraTags, now: now, using: rng)
    }

    /// As ``wrap(_:from:to:extraTags:now:using:)`` with the sender→recipient conversation key
    /// already derived (saves one ECDH per message to a known peer).
    public static func wrap(
        _ rumor: NostrEvent, from sender: Secp256k1.PrivateKey, to recipient: Secp256k1.XOnlyPublicKey,
        sealKey: NIP44.ConversationKey, extraTags: [[String]] = [], now: Int64 = UnixTime.now(),
        using rng: RandomSource = SystemRandom()
    ) throws -> NostrEvent {
        guard rumor.pubkey == sender.publicKey.hex else {
            throw NostrError(.senderMismatch, "rumor.pubkey must be the sender's key")
        }
        var unsigned = rumor
        unsigned.sig = nil
        let sealContent = try NIP44.encrypt(unsigned.jsonBytes, conversationKey: sealKey, using: rng)
        let seal = try EventTemplate(kind: sealKind, content: sealContent, tags: [], createdAt: randomPast(now, rng))
            .signed(by: sender, using: rng)
        let oneTime = Secp256k1.PrivateKey(using: rng)
        let wrapContent = try NIP44.encrypt(seal.jsonBytes, from: oneTime, to: recipient, using: rng)
        let wrapped = try EventTemplate(kind: wrapKind, content: wrapContent, tags: [["p", recipient.hex]] + extraTags,
                                        createdAt: randomPast(now, rng)).signed(by: oneTime, using: rng)
        // Content and tags make up the size; serialize only when they come near the reader's cap.
        let estimate = extraTags.reduce(wrapContent.utf8.count) { $0 + $1.reduce(0) { $0 + $1.utf8.count } }
        if estimate > NostrEvent.defaultMaxJSONBytes - 64 * 1024 {
            let size = wrapped.jsonBytes.count
            guard size <= NostrEvent.defaultMaxJSONBytes else {
                throw NostrError(.tooLarge, "the gift wrap would be \(size) bytes; readers accept at most \(NostrEvent.defaultMaxJSONBytes) (NostrEvent.defaultMaxJSONBytes)")
            }
        }
        return wrapped
    }

    /// Builds the rumor from `template` (author = sender) and wraps it.
    public static func wrap(
        template: EventTemplate, from sender: Secp256k1.PrivateKey, to recipient: Secp256k1.XOnlyPublicKey,
        now: Int64 = UnixTime.now(), using rng: RandomSource = SystemRandom()
    ) throws -> NostrEvent {
        try wrap(template.rumor(pubkey: sender.publicKey, now: now), from: sender, to: recipient, now: now, using: rng)
    }

    static func randomPast(_ now: Int64, _ rng: RandomSource) -> Int64 {
        now - Int64(rng.uniform(UInt32(maxBackdate) + 1))
    }
}
