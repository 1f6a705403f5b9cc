import InviteKitCrypto
import InviteKitNostr
import InviteKitRelay

/// Where a Marmot account wants KeyPackages looked up and Welcomes delivered (PROTOCOL §5.12.6;
/// `shared/marmot/v2/transports/nostr.md`): the write relays of its kind 10002, else of its legacy
/// kind 10051, and the inbox relays of its kind 10050.
public struct AccountRelays: Sendable, Hashable {
    public var keyPackageRelays: [String] = []
    public var inboxRelays: [String] = []
    public init(keyPackageRelays: [String] = [], inboxRelays: [String] = []) {
        self.keyPackageRelays = keyPackageRelays
        self.inboxRelays = inboxRelays
    }
}

/// Fetching the relay lists of many accounts in one REQ (``KeyPackageFetch/authorsPerFilter``
/// authors per filter). Lists are replaceable: the newest of each kind counts.
public enum AccountRelayFetch {
    public static let kinds = [RelayList.outboxKind, RelayList.inboxKind, RelayList.keyPackageKind]

    public static func fetch(from pool: RelayPool, authors: [Secp256k1.XOnlyPublicKey],
                             timeout: Duration = .relayTimeout) async -> [Secp256k1.XOnlyPublicKey: AccountRelays] {
        let hex = authors.map(\.hex)
        let filters = stride(from: 0, to: hex.count, by: KeyPackageFetch.authorsPerFilter).map {
            NostrFilter(authors: Array(hex[$0..<min(hex.count, $0 + KeyPackageFetch.authorsPerFilter)]), kinds: kinds)
        }
        guard !filters.isEmpty else { return [:] }
        let events = await pool.fetch(filters, timeout: timeout).events.filter { (try? $0.verify()) != nil }
        return relays(in: events, authors: authors)
    }

    /// The relays of each author among `events` (already verified).
    public static func relays(in events: [NostrEvent], authors: [Secp256k1.XOnlyPublicKey]) -> [Secp256k1.XOnlyPublicKey: AccountRelays] {
        var byAuthor: [String: [NostrEvent]] = [:]
        for e in events { byAuthor[e.pubkey, default: []].append(e) }
        var out: [Secp256k1.XOnlyPublicKey: AccountRelays] = [:]
        for a in authors {
            let mine = byAuthor[a.hex] ?? []
            var r = AccountRelays()
            if let outbox = RelayList.newest(mine, kind: RelayList.outboxKind, author: a.hex) {
                r.keyPackageRelays = RelayList.keyPackageRelays(of: outbox)
            }
            if r.keyPackageRelays.isEmpty, let legacy = RelayList.newest(mine, kind: RelayList.keyPackageKind, author: a.hex) {
                r.keyPackageRelays = RelayList.keyPackageRelays(of: legacy)
            }
            if let inbox = RelayList.newest(mine, kind: RelayList.inboxKind, author: a.hex) {
                r.inboxRelays = RelayList.inboxRelays(of: inbox)
            }
            out[a] = r
        }
        return out
    }
}
