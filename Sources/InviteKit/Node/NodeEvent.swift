import InviteKitStore

/// What a node reports to the app, in order, through ``InviteKitNode/events``.
public enum NodeEvent: Sendable {
    /// This node joined a group (a Welcome was processed).
    case joined(groupID: String, epoch: UInt64)
    /// The inviter refused this node's join request: the raw `invite_join_error` (PROTOCOL §8.2).
    case joinFailed(InviteJoinError)
    /// A group message was stored (received, or sent by this node).
    case message(StoredMessage)
    /// A Commit this node published was acknowledged and added `member` (x-only key).
    case memberAdded(groupID: String, member: [UInt8])
    case memberRemoved(groupID: String, member: [UInt8])
    /// A Commit this node made was refused by every relay: the group stays at its old epoch.
    case commitRolledBack(groupID: String, commitEventID: String)
    /// A join request was decided (for `serve`'s one line per action). A Whistle request
    /// reports ``approvalRequested(groupID:member:requestID:)`` instead.
    case joinRequestDecided(requestID: String, outcome: String)
    /// A join request through a Whistle code was stored and waits for an admin's
    /// ``InviteKitNode/approveJoin(member:groupID:)`` or `declineJoin` (PROTOCOL §8.3 rule 5).
    case approvalRequested(groupID: String, member: [UInt8], requestID: String)
}
