import InviteKitStore

extension NodeHome {
    /// A group's invite links this home made or holds, oldest first (``InviteKitNode/inviteLinks(in:)``),
    /// read without the home's lock.
    public func inviteLinks(in groupID: String) throws(InviteKitError) -> [NodeInviteLink] {
        try InviteKitError.mapping {
            try open().read { tx in try InviteKitNode.inviteLinks(ofGroup: try Self.groupRowID(groupID, in: tx), in: tx) }
        }
    }

    /// A group's invite-link requests (``InviteKitNode/inviteRequests(in:)``), read without the
    /// home's lock.
    public func inviteRequests(in groupID: String) throws(InviteKitError) -> [NodeInviteRequest] {
        try InviteKitError.mapping {
            let now = UnixTime.now()
            return try open().read { tx in try InviteKitNode.inviteRequests(ofGroup: try Self.groupRowID(groupID, in: tx), in: tx, now: now) }
        }
    }

    private static func groupRowID(_ anyID: String, in tx: StoreTransaction) throws -> String {
        guard let row = try tx.groups.find(anyID) else { throw InviteKitError(.groupNotFound) }
        return row.id
    }
}
