import InviteKitNostr

/// A NIP-01 subscription filter ([NIP-01](https://github.com/nostr-protocol/nips/blob/master/01.md), "From
/// client to relay"). Fields left `nil` do not constrain; within a field any listed value matches
/// (OR); across fields all must match (AND). An empty list matches nothing.
public struct NostrFilter: Sendable, Hashable {
    /// Exact 64-hex event ids.
    public var ids: [String]?
    /// Exact 64-hex author keys.
    public var authors: [String]?
    public var kinds: [Int]?
    /// Single-letter tag filters, keyed by the letter without `#` (`"p"` for `#p`): the event must
    /// carry a tag `[letter, v, ...]` with `v` in the list.
    public var tags: [String: [String]]
    public var since: Int64?
    public var until: Int64?
    /// How many stored events, newest first, the relay sends before `EOSE`. Not used by ``matches(_:)``.
    public var limit: Int?

    public init(
        ids: [String]? = nil, authors: [String]? = nil, kinds: [Int]? = nil, tags: [String: [String]] = [:],
        since: Int64? = nil, until: Int64? = nil, limit: Int? = nil
    ) {
        self.ids = ids; self.authors = authors; self.kinds = kinds; self.tags = tags
        self.since = since; self.until = until; self.limit = limit
    }

    /// Returns a copy with `#letter` = `values`.
    public func tag(_ letter: String, _ values: [String]) -> NostrFilter {
        var copy = self
        copy.tags[letter] = values
        return copy
    }
}
