/// One group message in the history.
public struct StoredMessage: Sendable, Hashable {
    public enum Status: String, Sendable, CaseIterable {
        /// Ours, queued for the relays.
        case pending
        /// Ours, written to at least one relay.
        case sent
        /// Ours, stored by at least one relay (`OK true`).
        case acked
        /// Ours, refused or given up on by every relay.
        case failed
        /// Someone else's, received from a relay.
        case received
    }

    /// The id of the event that carried it (the kind-445 event): history is unique by it.
    public var eventID: String
    /// The inner Marmot app event's id (PROTOCOL §5.15): what `e` tags of reactions, replies,
    /// edits and deletions name. `nil` in rows stored before schema v8.
    public var appEventID: String?
    public var groupID: String
    /// The author's x-only public key.
    public var sender: [UInt8]
    public var createdAt: Int64
    /// The inner (application) kind.
    public var kind: Int
    public var content: String
    /// The inner event's tags, as sent (docs/storage.md §6).
    public var tags: [[String]]
    /// The app event id this one points at (a reaction's, reply's, edit's or deletion's first
    /// `e` tag, PROTOCOL §5.15), set by the node; `nil` for a plain message.
    public var refersTo: String?
    /// When the group's retention removes it (Unix seconds, PROTOCOL §5.15); `nil` keeps it.
    public var expiresAt: Int64?
    /// When its author's deletion (kind 5) was applied: its content and tags are gone.
    public var deletedAt: Int64?
    public var outgoing: Bool
    public var status: Status
    /// The local order of arrival (docs/storage.md §6): history is ordered by `(createdAt, sequence)`,
    /// so within one second an own message and the replies to it keep their causal order.
    /// Assigned by the store on insert; 0 before.
    public var sequence: Int64

    public init(eventID: String, appEventID: String? = nil, groupID: String, sender: [UInt8], createdAt: Int64, kind: Int, content: String,
                tags: [[String]] = [], refersTo: String? = nil, expiresAt: Int64? = nil, deletedAt: Int64? = nil,
                outgoing: Bool, status: Status, sequence: Int64 = 0) {
        self.eventID = eventID; self.appEventID = appEventID; self.groupID = groupID; self.sender = sender; self.createdAt = createdAt
        self.kind = kind; self.content = content; self.tags = tags; self.refersTo = refersTo; self.expiresAt = expiresAt
        self.deletedAt = deletedAt; self.outgoing = outgoing; self.status = status; self.sequence = sequence
    }
}
