import InviteKitNostr

extension NostrFilter {
    /// Whether `event` satisfies this filter (NIP-01 semantics; `limit` is ignored). Used by the
    /// in-memory relay and to double-check what real relays send.
    public func matches(_ event: NostrEvent) -> Bool {
        if let ids, !ids.contains(event.id) { return false }
        if let authors, !authors.contains(event.pubkey) { return false }
        if let kinds, !kinds.contains(event.kind) { return false }
        if let since, event.createdAt < since { return false }
        if let until, event.createdAt > until { return false }
        for (letter, values) in tags {
            let hit = event.tags.contains { $0.count >= 2 && $0[0] == letter && values.contains($0[1]) }
            if !hit { return false }
        }
        return true
    }
}

extension Array where Element == NostrFilter {
    /// A REQ with several filters matches an event that any one of them matches.
    public func anyMatches(_ event: NostrEvent) -> Bool { contains { $0.matches(event) } }
}
