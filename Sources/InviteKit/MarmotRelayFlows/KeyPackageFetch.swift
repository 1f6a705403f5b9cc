import InviteKitMLS
import InviteKitRelay
import InviteKitCrypto
import InviteKitNostr

/// Fetching a user's MLS KeyPackage events (Marmot MIP-00; PROTOCOL.md §4.4): kind 30443 (addressable)
/// and the legacy kind 443. This returns candidate events only; validating them and choosing one
/// is the caller's job (the selection rule lives with the MLS layer).
public enum KeyPackageFetch {
    /// The kinds are owned by `KeyPackageEvent`.
    public static let kind = KeyPackageEvent.kind
    public static let legacyKind = KeyPackageEvent.legacyKind

    /// `{"authors":[author],"kinds":[30443,443]}`.
    public static func filter(author: Secp256k1.XOnlyPublicKey) -> NostrFilter {
        NostrFilter(authors: [author.hex], kinds: [kind, legacyKind])
    }

    /// Fetches from the pool and returns ``newestPerAddress(_:author:)`` of what arrived, with the raw fetch.
    public static func fetch(from pool: RelayPool, author: Secp256k1.XOnlyPublicKey,
                             timeout: Duration = .relayTimeout) async -> (events: [NostrEvent], fetch: RelayFetchResult) {
        let fetch = await pool.fetch([filter(author: author)], timeout: timeout)
        return (newestPerAddress(fetch.events, author: author), fetch)
    }

    /// Authors per filter: relays cap a filter's size and a REQ's results.
    public static let authorsPerFilter = 100

    /// Fetches the KeyPackage events of many authors at once (one REQ, ``authorsPerFilter``
    /// authors per filter) and returns ``newestPerAddress(_:author:)`` for each author.
    public static func fetch(from pool: RelayPool, authors: [Secp256k1.XOnlyPublicKey],
                             timeout: Duration = .relayTimeout) async -> [Secp256k1.XOnlyPublicKey: [NostrEvent]] {
        let hex = authors.map(\.hex)
        let filters = stride(from: 0, to: hex.count, by: authorsPerFilter).map {
            NostrFilter(authors: Array(hex[$0..<min(hex.count, $0 + authorsPerFilter)]), kinds: [kind, legacyKind])
        }
        guard !filters.isEmpty else { return [:] }
        let fetch = await pool.fetch(filters, timeout: timeout)
        var byAuthor: [String: [NostrEvent]] = [:]
        for e in fetch.events { byAuthor[e.pubkey, default: []].append(e) }
        var out: [Secp256k1.XOnlyPublicKey: [NostrEvent]] = [:]
        for a in authors { out[a] = newestPerAddress(byAuthor[a.hex] ?? [], author: a) }
        return out
    }

    /// Keeps events by `author` of kind 30443 or 443; of several 30443 events with one `d` tag only
    /// the newest (`created_at`, then the smallest id) stays: relays may hold older versions (nostr-relay
    /// 1.14 does). Legacy 443 events are not addressable and are all kept. Result: newest first.
    public static func newestPerAddress(_ events: [NostrEvent], author: Secp256k1.XOnlyPublicKey) -> [NostrEvent] {
        var byD = [String: NostrEvent]()
        var legacy = [String: NostrEvent]()
        for e in events where e.pubkey == author.hex {
            if e.kind == legacyKind { legacy[e.id] = e; continue }
            guard e.kind == kind else { continue }
            let d = e.firstTagValue("d") ?? ""
            if let old = byD[d], !(e.createdAt > old.createdAt || (e.createdAt == old.createdAt && e.id < old.id)) { continue }
            byD[d] = e
        }
        return (Array(byD.values) + Array(legacy.values)).sorted {
            $0.createdAt != $1.createdAt ? $0.createdAt > $1.createdAt : $0.id < $1.id
        }
    }
}
