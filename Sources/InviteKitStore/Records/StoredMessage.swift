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
    public var groupID: String
    /// The author's x-only public key.
    public var sender: [UInt8]
    public var createdAt: Int64
    /// The inner (application) kind.
    public var kind: Int
    public var content: String
    public var outgoing: Bool
    public var status: Status
    /// The local order of arrival (docs/storage.md §6): history is ordered by `(createdAt, sequence)`,
    /// so within one second an own message and the replies to it keep their causal order.
    /// Assigned by the store on insert; 0 before.
    public var sequence: Int64

    public init(eventID: String, groupID: String, sender: [UInt8], createdAt: Int64, kind: Int, content: String,
                outgoing: Bool, status: Status, sequence: Int64 = 0) {
        self.eventID = eventID; self.groupID = groupID; self.sender = sender; self.createdAt = createdAt
        self.kind = kind; self.content = content; self.outgoing = outgoing; self.status = status; self.sequence = sequence
    }
}
