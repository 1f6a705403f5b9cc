/// A Whistle join request an admin has to approve or decline (PROTOCOL §8.3 rule 5; docs/storage.md §6): what
/// approving needs, kept across restarts.
public struct PendingApprovalRecord: Sendable, Hashable {
    public enum Status: String, Sendable { case waiting, approved, declined }

    /// The join request's rumor id (one row per request).
    public var requestID: String
    /// The outer gift wrap's id.
    public var wrapID: String
    /// The hosted group's private id.
    public var groupID: String
    /// The joiner's x-only public key.
    public var joiner: [UInt8]
    /// The request's KeyPackage event (kind 30443) as JSON; validated again when approved.
    public var keyPackageEventJSON: String
    public var status: Status
    /// The join Commit an approval queued.
    public var commitEventID: String?
    public var createdAt: Int64
    public var resolvedAt: Int64?

    public init(requestID: String, wrapID: String, groupID: String, joiner: [UInt8], keyPackageEventJSON: String,
                status: Status = .waiting, commitEventID: String? = nil, createdAt: Int64, resolvedAt: Int64? = nil) {
        self.requestID = requestID; self.wrapID = wrapID; self.groupID = groupID; self.joiner = joiner
        self.keyPackageEventJSON = keyPackageEventJSON; self.status = status; self.commitEventID = commitEventID
        self.createdAt = createdAt; self.resolvedAt = resolvedAt
    }
}
