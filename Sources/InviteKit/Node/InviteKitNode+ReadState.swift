import InviteKitStore

/// Read marks, mute and pin: this home's own view of its groups (docs/storage.md §6), never sent
/// to the group (PROTOCOL §5.16).
extension InviteKitNode {
    /// The group's read state: the last message marked read, the unread count (messages from
    /// others after it that the timeline shows as rows: reactions, edits and deletions annotate
    /// their target and are never unread; nor is an expired message), muted, pinned.
    public func readState(of groupID: String) throws(InviteKitError) -> GroupReadState {
        try requireOpen()
        return try InviteKitError.mapping {
            let id = try groupRow(groupID).id
            let now = currentTime()
            return try store.read { tx in try Self.readState(groupID: id, now: now, in: tx) }
        }
    }

    /// Marks the group read up to `eventID` (a message in its history), or up to its newest
    /// message. A mark never moves back. Returns the state after it.
    @discardableResult
    public func markRead(_ groupID: String, upTo eventID: String? = nil) throws(InviteKitError) -> GroupReadState {
        try requireOpen()
        return try InviteKitError.mapping {
            let id = try groupRow(groupID).id
            let now = currentTime()
            return try store.write { tx in
                let message = try eventID.map { try tx.messages.get(eventID: $0) } ?? tx.messages.history(groupID: id, before: (Int64.max, Int64.max), limit: 1).first
                if let eventID, message?.groupID != id {
                    throw InviteKitError(.notFound, underlyingCode: "message_not_found", context: "no message \(eventID) in this group")
                }
                if let message { try tx.readState.markRead(message, now: now) }
                return try Self.readState(groupID: id, now: now, in: tx)
            }
        }
    }

    /// Mutes or unmutes the group for this home. Returns the state after it.
    @discardableResult
    public func setMuted(_ muted: Bool, groupID: String) throws(InviteKitError) -> GroupReadState {
        try changeLocal(groupID) { tx, id, now in try tx.readState.setMuted(groupID: id, muted, now: now) }
    }

    /// Pins or unpins the group for this home. Returns the state after it.
    @discardableResult
    public func setPinned(_ pinned: Bool, groupID: String) throws(InviteKitError) -> GroupReadState {
        try changeLocal(groupID) { tx, id, now in try tx.readState.setPinned(groupID: id, pinned, now: now) }
    }

    private func changeLocal(_ groupID: String, _ body: (StoreTransaction, String, Int64) throws -> Void) throws(InviteKitError) -> GroupReadState {
        try requireOpen()
        return try InviteKitError.mapping {
            let id = try groupRow(groupID).id
            let now = currentTime()
            return try store.write { tx in
                try body(tx, id, now)
                return try Self.readState(groupID: id, now: now, in: tx)
            }
        }
    }

    /// The one read of a group's read state: its unread count counts what ``timeline(of:after:limit:)``
    /// shows as rows (PROTOCOL §5.15: not the relation kinds that annotate a target).
    static func readState(groupID: String, now: Int64, in tx: StoreTransaction) throws -> GroupReadState {
        try tx.readState.get(groupID: groupID, visibleAt: now, excludingKinds: MessageRelation.annotationKinds)
    }
}
