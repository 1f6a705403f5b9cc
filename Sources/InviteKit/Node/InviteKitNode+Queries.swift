import InviteKitCrypto
import InviteKitMLS
import InviteKitStore

/// What an app reads from a node. Every read is one store transaction (or the in-memory group
/// state the last transaction wrote), so it is consistent with the events already emitted.
extension InviteKitNode {
    /// Every group this node hosts or joined, by name then id.
    public func groups() throws(InviteKitError) -> [NodeGroup] {
        try requireOpen()
        let rows = try InviteKitError.mapping { try store.read { tx in try tx.groups.all() } }
        return rows.compactMap { summary(of: $0) }
    }

    /// One group by either id (``NodeGroup/id`` or ``NodeGroup/nostrGroupID``).
    public func group(_ anyID: String) throws(InviteKitError) -> NodeGroup {
        try requireOpen()
        let row = try InviteKitError.mapping { try groupRow(anyID) }
        guard let g = summary(of: row) else { throw InviteKitError(.groupNotFound) }
        return g
    }

    func summary(of row: StoredGroup) -> NodeGroup? {
        guard let g = try? currentGroup(row.id) else { return nil }
        return NodeGroup(id: row.id, nostrGroupID: row.nostrGroupID, name: row.name, role: g.isAdmin ? .admin : .member,
                         hostsInvites: hostedGroup(row.id) != nil, epoch: g.epoch, relays: row.relays, isRemoved: row.removedAt != nil,
                         profile: g.profile, description: g.groupData.description, isDisbanded: g.groupData.lifecycle == .disbanded)
    }

    /// A group's members with their admin flag (MIP-01 group data), and its epoch.
    public func members(of groupID: String) throws(InviteKitError) -> (members: [NodeGroupMember], epoch: UInt64) {
        try requireOpen()
        return try InviteKitError.mapping { try members(groupID: try groupRow(groupID).id) }
    }

    /// A page of a group's history in order (`(createdAt, sequence)`, docs/storage.md §6): the
    /// oldest `limit` messages after `after`, or with `before`, the newest `limit` before it.
    /// Every app event is a row, with its kind and tags (reactions, edits and deletions too:
    /// ``MessageRelation`` reads them; ``timeline(of:after:limit:)`` folds them into their
    /// targets). Messages past the group's retention are left out (PROTOCOL §5.15).
    public func history(of groupID: String, after: StoredMessage? = nil, before: StoredMessage? = nil,
                        limit: Int = 500) throws(InviteKitError) -> [StoredMessage] {
        try requireOpen()
        return try InviteKitError.mapping {
            let id = try groupRow(groupID).id
            let n = max(0, min(limit, 10_000)), now = currentTime()
            return try store.read { tx in
                if let before { return try tx.messages.history(groupID: id, before: (before.createdAt, before.sequence), limit: n, visibleAt: now) }
                return try tx.messages.history(groupID: id, after: after.map { ($0.createdAt, $0.sequence) }, limit: n, visibleAt: now)
            }
        }
    }

    /// The invites this node made for a group, oldest first.
    public func invites(of groupID: String) throws(InviteKitError) -> [StoredInvite] {
        try requireOpen()
        return try InviteKitError.mapping {
            let id = try groupRow(groupID).id
            return try store.read { tx in try tx.invites.forGroup(id) }
        }
    }

    /// Relays used when a group or invite names none.
    public func defaultRelays() throws(InviteKitError) -> [String] {
        try requireOpen()
        return try InviteKitError.mapping { try store.read { tx in try tx.identity.relays() } }
    }
}
