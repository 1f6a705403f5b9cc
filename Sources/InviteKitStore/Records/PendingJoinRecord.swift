/// The joiner's side of a join: what was sent, to whom, and how it ended.
public struct PendingJoinRecord: Sendable, Hashable {
    public enum State: String, Sendable { case requested, joined, failed, cancelled }

    /// The join request's rumor id (one record per request).
    public var id: String
    public var inviteURL: String
    public var inviteTag: String?
    /// The inviter's x-only public key: only its gift wraps count.
    public var inviter: [UInt8]
    public var relays: [String]
    public var keyPackageRef: [UInt8]?
    public var keyPackageEventID: String?
    public var requestEventID: String?
    public var state: State
    public var groupID: String?
    /// The raw `invite_join_error` fields when refused.
    public var errorType: String?
    public var errorTag: String?
    public var errorReason: String?
    public var errorAt: Int64?
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(id: String, inviteURL: String, inviteTag: String?, inviter: [UInt8], relays: [String],
                keyPackageRef: [UInt8]?, keyPackageEventID: String?, requestEventID: String?, state: State = .requested,
                groupID: String? = nil, errorType: String? = nil, errorTag: String? = nil, errorReason: String? = nil,
                errorAt: Int64? = nil, createdAt: Int64, updatedAt: Int64) {
        self.id = id; self.inviteURL = inviteURL; self.inviteTag = inviteTag; self.inviter = inviter; self.relays = relays
        self.keyPackageRef = keyPackageRef; self.keyPackageEventID = keyPackageEventID; self.requestEventID = requestEventID
        self.state = state; self.groupID = groupID; self.errorType = errorType; self.errorTag = errorTag
        self.errorReason = errorReason; self.errorAt = errorAt; self.createdAt = createdAt; self.updatedAt = updatedAt
    }
}
