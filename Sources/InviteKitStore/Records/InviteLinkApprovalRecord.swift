/// An approved invite-link request whose Add Commit is in flight or done (docs/storage.md §6,
/// `invite_link_approvals`): the obligation to record the realization and send the `invited`
/// status once the Commit is applied, kept across restarts.
public struct InviteLinkApprovalRecord: Sendable, Hashable {
    /// `waiting` for the Commit's outcome; `invited` once it was applied and the status queued;
    /// `lost` when the Commit was rolled back (the request is open again).
    public enum Status: String, Sendable { case waiting, invited, lost }

    public var commitEventID: String
    public var groupID: String
    /// The encoded `InviteRequestContextV1`.
    public var context: [UInt8]
    public var requestHash: [UInt8]
    /// SHA-256 of the Commit's and the Welcome's MLSMessage bytes, for the status.
    public var commitHash: [UInt8]
    public var welcomeHash: [UInt8]
    /// Where the `invited` status goes: the requester's kind 10050 inbox relays and the offer's
    /// hints, read when the request was approved.
    public var statusRelays: [String]
    public var status: Status
    public var createdAt: Int64
    public var resolvedAt: Int64?

    public init(commitEventID: String, groupID: String, context: [UInt8], requestHash: [UInt8], commitHash: [UInt8], welcomeHash: [UInt8],
                statusRelays: [String], status: Status = .waiting, createdAt: Int64, resolvedAt: Int64? = nil) {
        self.commitEventID = commitEventID; self.groupID = groupID; self.context = context; self.requestHash = requestHash
        self.commitHash = commitHash; self.welcomeHash = welcomeHash; self.statusRelays = statusRelays; self.status = status; self.createdAt = createdAt
        self.resolvedAt = resolvedAt
    }
}
