/// Where a commit sits in the tie-break order of PROTOCOL.md §5.7: earliest `created_at`, then the
/// lexicographically smallest event id.
public struct CommitOrder: Hashable, Sendable, Comparable {
    public let createdAt: Int64
    /// The 32-byte Nostr event id.
    public let eventID: [UInt8]

    public init(createdAt: Int64, eventID: [UInt8]) {
        self.createdAt = createdAt
        self.eventID = eventID
    }

    /// `a < b` when `a` wins.
    public static func < (a: CommitOrder, b: CommitOrder) -> Bool {
        if a.createdAt != b.createdAt { return a.createdAt < b.createdAt }
        return a.eventID.lexicographicallyPrecedes(b.eventID)
    }
}
