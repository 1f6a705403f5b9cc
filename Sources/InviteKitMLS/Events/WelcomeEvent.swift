import InviteKitCrypto
import InviteKitNostr

/// Welcome rumors (Marmot MIP-02; PROTOCOL.md §5.6): kind 444, unsigned, gift-wrapped (NIP-59) to the joiner; tags
/// `relays`, `e` (the KeyPackage event id), `encoding`; content = base64 of the ``Welcome``.
public enum WelcomeEvent {
    public static let kind = 444

    /// The unsigned rumor, authored by the committer's Nostr key.
    public static func rumor(_ welcome: LegacyWelcome, keyPackageEventID: String, relays: [String], author: Secp256k1.XOnlyPublicKey,
                             now: Int64 = UnixTime.now()) -> NostrEvent {
        EventTemplate(kind: kind, content: Base64.encode(welcome.tlsSerialized),
                      tags: [["relays"] + relays, ["e", keyPackageEventID], ["encoding", "base64"]], createdAt: now)
            .rumor(pubkey: author, now: now)
    }

    /// Rumor, sealed and gift-wrapped for the joiner. Only Welcomes returned by
    /// ``GroupSession/confirmPublished(_:acknowledgedBy:)`` exist to be wrapped.
    public static func giftWrap(_ welcome: LegacyWelcome, keyPackageEventID: String, relays: [String], from committer: Secp256k1.PrivateKey,
                                to joiner: Secp256k1.XOnlyPublicKey, now: Int64 = UnixTime.now(),
                                rng: RandomSource = SystemRandom()) throws -> NostrEvent {
        let r = rumor(welcome, keyPackageEventID: keyPackageEventID, relays: relays, author: committer.publicKey, now: now)
        return try GiftWrap.wrap(r, from: committer, to: joiner, now: now, using: rng)
    }

    /// Reads a kind-444 rumor.
    public static func parse(_ rumor: NostrEvent) throws -> (welcome: LegacyWelcome, keyPackageEventID: String?, relays: [String]) {
        guard rumor.kind == kind else { throw GroupError(.invalidEvent, "kind \(rumor.kind) is not a Welcome") }
        if let enc = rumor.firstTagValue("encoding"), enc != "base64" { throw GroupError(.invalidEvent, "encoding \(enc)") }
        guard let bytes = Base64.decode(rumor.content) ?? Hex.decode(rumor.content),
              let w = try? LegacyWelcome(tlsSerialized: bytes) else {
            throw GroupError(.invalidWelcome, "content is not a Welcome")
        }
        let relays = rumor.tags.first { $0.first == "relays" }.map { Array($0.dropFirst()) } ?? []
        return (w, rumor.firstTagValue("e"), relays)
    }
}
