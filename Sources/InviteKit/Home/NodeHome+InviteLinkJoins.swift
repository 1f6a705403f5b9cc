import InviteKitStore

extension NodeHome {
    /// The home's joins through invite links, oldest first (``InviteKitNode/inviteLinkJoins()``),
    /// read without the home's lock.
    public func inviteLinkJoins() throws(InviteKitError) -> [InviteLinkJoin] {
        try InviteKitError.mapping {
            let now = UnixTime.now()
            return try open().read { tx in try InviteLinkJoin.all(in: tx, now: now) }
        }
    }
}
