import InviteKitCrypto
import InviteKitNostr

/// Deletion requests ([NIP-09](https://github.com/nostr-protocol/nips/blob/master/09.md)): a kind-5
/// event by the same author with an `e` tag per event id, an `a` tag per addressable event
/// (`kind:pubkey:d`) and a `k` tag per kind deleted. Relays may honour it; it is a request.
public enum EventDeletion {
    public static let kind = 5

    /// The deletion template for `events` (all must be by the same author, who signs it).
    /// Addressable events (30000–39999) get an `a` tag as well as an `e` tag, so that a relay also
    /// drops versions it holds under the same address.
    public static func template(deleting events: [NostrEvent], reason: String = "") -> EventTemplate {
        var tags = [[String]]()
        var kinds = [Int]()
        for e in events {
            tags.append(["e", e.id])
            if EventStore.isAddressable(e.kind) {
                tags.append(["a", "\(e.kind):\(e.pubkey):\(e.firstTagValue("d") ?? "")"])
            }
            if !kinds.contains(e.kind) { kinds.append(e.kind) }
        }
        for k in kinds { tags.append(["k", String(k)]) }
        return EventTemplate(kind: kind, content: reason, tags: tags)
    }

    /// Signs a deletion of `events` with `author` and publishes it. Events by another author are
    /// refused (a relay would ignore them anyway) with `NostrError.invalidKey`.
    public static func delete(_ events: [NostrEvent], author: Secp256k1.PrivateKey, reason: String = "",
                              via pool: RelayPool, timeout: Duration = .relayTimeout) async throws -> (deletion: NostrEvent, result: BatchResult<RelayAcceptance, String>) {
        guard events.allSatisfy({ $0.pubkey == author.publicKey.hex }) else {
            throw NostrError(.invalidKey, "only the author of an event can request its deletion")
        }
        let deletion = try template(deleting: events, reason: reason).signed(by: author)
        return (deletion, await pool.publish(deletion, timeout: timeout))
    }
}
