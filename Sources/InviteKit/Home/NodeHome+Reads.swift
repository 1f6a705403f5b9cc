import InviteKitNostr
import InviteKitStore

/// What any process reads from a home without its lock (SQLite WAL readers), also while another
/// process's node owns it: each read is one transaction of what that node committed.
extension NodeHome {
    /// Every group of the home, by name then id, restored from its stored state (one that does
    /// not restore is left out, as ``InviteKitNode/groups()`` leaves it out).
    public func groups() throws(InviteKitError) -> [NodeGroup] {
        try InviteKitError.mapping {
            let store = try open()
            return try store.read { tx in
                let me = try tx.identity.publicKey()
                return try tx.groups.all().compactMap { row in try? Self.summary(of: row, me: me, in: tx) }
            }
        }
    }

    /// One group by either id or a unique prefix.
    public func group(_ anyID: String) throws(InviteKitError) -> NodeGroup {
        try InviteKitError.mapping {
            let store = try open()
            return try store.read { tx in
                guard let row = try tx.groups.find(anyID) else { throw InviteKitError(.groupNotFound) }
                do { return try Self.summary(of: row, me: try tx.identity.publicKey(), in: tx) } catch {
                    throw InviteKitNode.damage(error, groupID: row.id)
                }
            }
        }
    }

    /// A group's members with their admin flag, and its epoch (``InviteKitNode/members(of:)``).
    public func members(of groupID: String) throws(InviteKitError) -> (members: [NodeGroupMember], epoch: UInt64) {
        try InviteKitNode.storedMembers(home: home, group: groupID)
    }

    /// Whistle join requests of a group waiting for an admin (``InviteKitNode/pendingApprovals(groupID:)``).
    public func pendingApprovals(groupID: String) throws(InviteKitError) -> [PendingApprovalRecord] {
        try InviteKitNode.storedApprovals(home: home, group: groupID)
    }

    /// A page of a group's history in order, the oldest `limit` messages after `after`
    /// (``InviteKitNode/history(of:after:before:limit:)``).
    public func history(of groupID: String, after: StoredMessage? = nil, limit: Int = 500) throws(InviteKitError) -> [StoredMessage] {
        try InviteKitError.mapping {
            let store = try open()
            return try store.read { tx in
                guard let row = try tx.groups.find(groupID) else { throw InviteKitError(.groupNotFound) }
                return try tx.messages.history(groupID: row.id, after: after.map { ($0.createdAt, $0.sequence) }, limit: max(0, min(limit, 10_000)),
                                               visibleAt: UnixTime.now())
            }
        }
    }

    /// A page of a group's conversation with reactions, replies, edits and deletions folded in
    /// (``InviteKitNode/timeline(of:after:limit:)``).
    public func timeline(of groupID: String, after: StoredMessage? = nil, limit: Int = 500) throws(InviteKitError) -> [TimelineMessage] {
        try InviteKitError.mapping {
            try open().read { tx in
                guard let row = try tx.groups.find(groupID) else { throw InviteKitError(.groupNotFound) }
                return try InviteKitNode.timeline(groupID: row.id, after: after, limit: limit, now: UnixTime.now(), in: tx)
            }
        }
    }

    /// A message's delivery status by event id (``InviteKitNode/send(_:to:)``'s answer); `nil`
    /// for an id the home does not hold.
    public func messageStatus(of eventID: String) throws(InviteKitError) -> StoredMessage.Status? {
        try InviteKitError.mapping { try open().read { tx in try tx.messages.get(eventID: eventID)?.status } }
    }

    /// An own Commit's state by event id (a membership change's answer); `nil` for an unknown id.
    public func commitStatus(of commitEventID: String) throws(InviteKitError) -> PendingCommitStatus? {
        try InviteKitError.mapping { try open().read { tx in try tx.pendingCommits.get(commitEventID: commitEventID)?.status } }
    }

    /// An outbound event's status over all its relays (a leave or join request); `queued` for an
    /// id the outbound queue does not hold.
    public func deliveryStatus(of eventID: String) throws(InviteKitError) -> EventDeliverySummary {
        try InviteKitError.mapping { try open().read { tx in try tx.outbound.summary(eventID: eventID) ?? .queued } }
    }

    /// A join this home started, by id (``InviteKitNode/startJoin(invite:name:)``), in whatever
    /// state it is; `nil` for an unknown id.
    public func pendingJoin(_ joinID: String) throws(InviteKitError) -> PendingJoinRecord? {
        try InviteKitError.mapping { try open().read { tx in try tx.pendingJoins.get(id: joinID) } }
    }

    /// The home's database for reading; `home_unavailable` when the home has no identity.
    func open() throws -> Store {
        guard home.exists else {
            throw InviteKitError(.homeUnavailable, underlyingCode: "no_identity", context: "no identity in \(home.directory)")
        }
        return try Store.open(path: home.databasePath)
    }

    private static func summary(of row: StoredGroup, me: [UInt8]?, in tx: StoreTransaction) throws -> NodeGroup {
        let g = try InviteKitNode.restoreGroup(row, in: tx).group
        return NodeGroup(id: row.id, nostrGroupID: row.nostrGroupID, name: row.name, role: me.map { g.groupData.isAdmin($0) } == true ? .admin : .member,
                         hostsInvites: row.currentTag != nil, epoch: g.epoch, relays: row.relays, isRemoved: row.removedAt != nil,
                         profile: g.groupData.profile, description: g.groupData.description, isDisbanded: g.groupData.lifecycle == .disbanded)
    }
}
