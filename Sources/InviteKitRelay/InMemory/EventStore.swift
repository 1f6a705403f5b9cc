import InviteKitNostr

/// The storage rules a relay applies ([NIP-01](https://github.com/nostr-protocol/nips/blob/master/01.md)
/// "Kinds", [NIP-09](https://github.com/nostr-protocol/nips/blob/master/09.md)): regular events are kept;
/// replaceable kinds (0, 3, 10000–19999) keep the newest per pubkey+kind; addressable kinds
/// (30000–39999) keep the newest per pubkey+kind+`d`; ephemeral kinds (20000–29999) are not stored;
/// kind 5 deletes the author's own `e`/`a`-referenced events. Ties on `created_at` keep the lowest id.
package struct EventStore: Sendable {
    /// Why an event was not stored.
    package enum InsertResult: Sendable, Hashable {
        case stored
        /// Same id already held.
        case duplicate
        /// A newer (or tie-winning) version of this replaceable/addressable event is held.
        case superseded
        /// Deleted earlier by its author (NIP-09); re-publishing does not bring it back.
        case deleted
        /// Ephemeral: delivered to live subscribers only.
        case ephemeral
    }

    private var byId: [String: NostrEvent] = [:]
    private var replaceableKey: [String: String] = [:]  // key -> id
    private var deletedIds: Set<String> = []
    /// Addressable coordinates deleted up to a `created_at` (NIP-09 `a` tags).
    private var deletedAddresses: [String: Int64] = [:]

    package init() {}

    package var count: Int { byId.count }
    package var all: [NostrEvent] { Array(byId.values) }

    package static func isReplaceable(_ kind: Int) -> Bool { kind == 0 || kind == 3 || (10000..<20000).contains(kind) }
    package static func isEphemeral(_ kind: Int) -> Bool { (20000..<30000).contains(kind) }
    package static func isAddressable(_ kind: Int) -> Bool { (30000..<40000).contains(kind) }

    /// `kind:pubkey:d`, the NIP-01 address of an addressable event (and the key of a replaceable one, d = "").
    package static func address(of e: NostrEvent) -> String? {
        if isReplaceable(e.kind) { return "\(e.kind):\(e.pubkey):" }
        if isAddressable(e.kind) { return "\(e.kind):\(e.pubkey):\(e.firstTagValue("d") ?? "")" }
        return nil
    }

    package mutating func insert(_ e: NostrEvent) -> InsertResult {
        if byId[e.id] != nil { return .duplicate }
        if deletedIds.contains(e.id) { return .deleted }
        if Self.isEphemeral(e.kind) { return .ephemeral }
        if let addr = Self.address(of: e) {
            if let cutoff = deletedAddresses[addr], e.createdAt <= cutoff { return .deleted }
            if let oldId = replaceableKey[addr], let old = byId[oldId] {
                let newer = e.createdAt > old.createdAt || (e.createdAt == old.createdAt && e.id < old.id)
                guard newer else { return .superseded }
                byId[oldId] = nil
            }
            replaceableKey[addr] = e.id
        }
        byId[e.id] = e
        if e.kind == 5 { applyDeletion(e) }
        return .stored
    }

    private mutating func applyDeletion(_ d: NostrEvent) {
        for id in d.tagValues("e") {
            guard let target = byId[id] else { continue }
            // Only the author may delete; a deletion never deletes another deletion's target of another author.
            guard target.pubkey == d.pubkey, target.kind != 5 else { continue }
            byId[id] = nil
            deletedIds.insert(id)
            if let addr = Self.address(of: target), replaceableKey[addr] == id { replaceableKey[addr] = nil }
        }
        for addr in d.tagValues("a") {
            let parts = addr.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[1] == Substring(d.pubkey) else { continue }
            deletedAddresses[addr] = max(deletedAddresses[addr] ?? 0, d.createdAt)
            if let id = replaceableKey[addr], let target = byId[id], target.createdAt <= d.createdAt {
                byId[id] = nil
                deletedIds.insert(id)
                replaceableKey[addr] = nil
            }
        }
    }

    /// Stored events matching any filter, each filter's `limit` applied to its own newest-first
    /// list, merged without duplicates, newest first (ties: lowest id).
    package func query(_ filters: [NostrFilter]) -> [NostrEvent] {
        var seen = Set<String>()
        var out = [NostrEvent]()
        for f in filters {
            var hits = byId.values.filter { f.matches($0) }
            hits.sort { $0.createdAt != $1.createdAt ? $0.createdAt > $1.createdAt : $0.id < $1.id }
            if let limit = f.limit { hits = Array(hits.prefix(limit)) }
            for e in hits where seen.insert(e.id).inserted { out.append(e) }
        }
        out.sort { $0.createdAt != $1.createdAt ? $0.createdAt > $1.createdAt : $0.id < $1.id }
        return out
    }
}
