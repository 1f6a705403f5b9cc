import InviteKitCrypto
import InviteKitNostr

/// Client authentication to relays ([NIP-42](https://github.com/nostr-protocol/nips/blob/master/42.md)).
public enum NIP42 {
    public static let authKind = 22242

    /// The signed kind-22242 event answering `challenge` from the relay at `relayURL`:
    /// tags `["relay", url]` and `["challenge", challenge]`, empty content, dated now.
    public static func authEvent(relayURL: String, challenge: String, signer: Secp256k1.PrivateKey,
                                 now: Int64 = UnixTime.now(), using rng: RandomSource = SystemRandom()) throws -> NostrEvent {
        try EventTemplate(kind: authKind, content: "", tags: [["relay", relayURL], ["challenge", challenge]], createdAt: now)
            .signed(by: signer, using: rng)
    }
}
