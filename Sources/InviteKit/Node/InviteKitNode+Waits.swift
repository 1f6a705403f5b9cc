import InviteKitStore

/// Waiting for what ``run()`` does: a message's delivery, a Commit's outcome (a membership
/// change), and, in InviteKitNode+Joining.swift, a join's answer. Each looks at the store first
/// and then at the events, subscribed before the look, so an outcome is never missed, also one
/// decided before the call or before a restart. `timeout` `nil` waits as long as the node runs.
extension InviteKitNode {
    /// Returns once a relay acknowledged the own message `eventID` (``send(_:to:)``'s id,
    /// NIP-01 `OK true`). Throws `relay_rejected` (`message_failed`) when every relay refused it
    /// or the retries ran out, `not_found` (`message_not_found`) for an id that is not an own
    /// message of this home, `timed_out` (`delivery_pending`) after `timeout`, and
    /// `node_shut_down` when the node is shut down meanwhile.
    public func waitForDelivery(of eventID: String, timeout: Duration? = nil) async throws(InviteKitError) {
        try requireOpen()
        let events = events(bufferingNewest: 64)
        if try deliveryDone(eventID) { return }
        wake()
        _ = await NodeEventWait.first(in: events, timeout: timeout) { event -> Bool? in
            switch event {
            case .messageDelivered(_, let id) where id == eventID, .messageFailed(_, let id) where id == eventID: return true
            default: return nil
            }
        }
        try requireOpen()
        if try deliveryDone(eventID) { return }
        throw InviteKitError(.timedOut, underlyingCode: "delivery_pending")
    }

    /// `true` once acknowledged; throws once failed; `false` while on its way.
    private func deliveryDone(_ eventID: String) throws(InviteKitError) -> Bool {
        let message = try InviteKitError.mapping { try store.read { tx in try tx.messages.get(eventID: eventID) } }
        guard let message, message.outgoing else { throw InviteKitError(.notFound, underlyingCode: "message_not_found") }
        switch message.status {
        case .acked: return true
        case .failed: throw InviteKitError(.relayRejected, underlyingCode: "message_failed")
        case .pending, .sent, .received: return false
        }
    }

    /// Returns the group once the own Commit `commitEventID` (from ``removeMember(_:groupID:)``,
    /// ``selfUpdate(groupID:)``, ``addMember(_:to:)`` or ``approveJoin(member:groupID:)``) was
    /// acknowledged by a relay and applied: the membership change has happened. Throws
    /// `commit_rejected` (`commit_rolled_back`) when every relay refused it or another Commit took
    /// its epoch first (the group stays as it was; make the change again), `not_found`
    /// (`commit_not_found`), `timed_out` (`commit_pending`) after `timeout`, and `node_shut_down`.
    public func waitForCommit(_ commitEventID: String, timeout: Duration? = nil) async throws(InviteKitError) -> NodeGroup {
        try requireOpen()
        let events = events(bufferingNewest: 64)
        if let group = try commitOutcome(commitEventID) { return group }
        wake()
        _ = await NodeEventWait.first(in: events, timeout: timeout) { event -> Bool? in
            switch event {
            case .commitConfirmed(_, let id, _) where id == commitEventID, .commitRolledBack(_, let id, _) where id == commitEventID: return true
            default: return nil
            }
        }
        try requireOpen()
        if let group = try commitOutcome(commitEventID) { return group }
        throw InviteKitError(.timedOut, underlyingCode: "commit_pending")
    }

    /// The group once the Commit was applied; throws once it was rolled back; `nil` while waiting.
    private func commitOutcome(_ commitEventID: String) throws(InviteKitError) -> NodeGroup? {
        let row = try InviteKitError.mapping { try store.read { tx in try tx.pendingCommits.get(commitEventID: commitEventID) } }
        guard let row else { throw InviteKitError(.notFound, underlyingCode: "commit_not_found") }
        switch row.status {
        case .waiting: return nil
        case .confirmed: return try group(row.groupID)
        case .rolledBack: throw InviteKitError(.commitRejected, underlyingCode: "commit_rolled_back")
        }
    }
}
