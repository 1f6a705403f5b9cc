import InviteKitCrypto
import InviteKitNostr

/// Kind-445 group events (Marmot MIP-03; PROTOCOL.md §5.4): `["h", nostr_group_id hex]`, signed by a fresh ephemeral
/// key per event, content = base64(nonce || ChaCha20-Poly1305 ciphertext).
public enum GroupEvent {
    public static let kind = 445

    /// Wraps encrypted content in a kind-445 event signed by a one-time key.
    public static func make(sealed: [UInt8], nostrGroupID: [UInt8], now: Int64 = UnixTime.now(),
                            rng: RandomSource = SystemRandom()) throws -> NostrEvent {
        let ephemeral = Secp256k1.PrivateKey(using: rng)
        return try EventTemplate(kind: kind, content: Base64.encode(sealed), tags: [["h", Hex.encode(nostrGroupID)]], createdAt: now)
            .signed(by: ephemeral, using: rng)
    }

    /// Checks kind, `h` tag, id and signature; returns the encrypted bytes and the ordering key.
    public static func open(_ event: NostrEvent, nostrGroupID: [UInt8]) throws -> (sealed: [UInt8], order: CommitOrder) {
        guard event.kind == kind else { throw GroupError(.invalidEvent, "kind \(event.kind) is not 445") }
        guard event.firstTagValue("h") == Hex.encode(nostrGroupID) else { throw GroupError(.invalidEvent, "h tag is not this group") }
        do { try event.verify() } catch { throw GroupError(.invalidEvent, "event signature: \(error)") }
        guard let sealed = Base64.decode(event.content), let id = Hex.decode(event.id, count: 32) else {
            throw GroupError(.invalidEvent, "content is not base64")
        }
        return (sealed, CommitOrder(createdAt: event.createdAt, eventID: id))
    }
}
