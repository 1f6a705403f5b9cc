import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr

/// What the inviter decided about one gift-wrapped message (PROTOCOL.md §8.3 validation order).
public enum JoinDecision: Sendable {
    public enum IgnoreReason: String, Sendable {
        case ownMessage = "own_message"
        case duplicate = "duplicate"
        case notAJoinRequest = "not_a_join_request"
        /// The group has a Commit waiting for its relay `OK`: nothing was decided, and the same
        /// request is decided when it comes again after that Commit resolves (one Commit per
        /// epoch in flight, or members could follow a different branch than the admin).
        case commitPending = "commit_pending"
    }

    /// Nothing to do and nothing sent.
    case ignored(IgnoreReason)
    /// Forged, expired, malformed or for another creator: nothing is sent, ever.
    case dropped(InviteKitError)
    /// One join-error reply (already gift-wrapped to the joiner) and the error it carries.
    case rejected(reply: NostrEvent, error: InviteJoinError)
    /// A Whistle invite code carries no signature: the request waits for an admin's approval
    /// (``JoinRequestProcessor/approve(_:in:)`` or ``InviteKitNode/approveJoin(member:groupID:)``).
    case needsApproval(PendingApproval)
    /// Accepted: publish `pending.event`, then call
    /// ``JoinRequestProcessor/confirmPublished(_:in:acknowledgedBy:)`` to get the Welcome.
    case accepted(PendingJoin)
}

/// An accepted join whose Commit is not yet confirmed on a relay. The Welcome is not
/// available until it is (PROTOCOL.md §8.1: otherwise the joiner forks from the group).
public struct PendingJoin: Sendable {
    public let conversationID: String
    public let joiner: InviteKitCrypto.Secp256k1.XOnlyPublicKey
    public let keyPackageEventID: String
    public let inviteTag: String?
    let commit: MarmotPendingCommit<MLSGroupState>
    /// The kind-445 Commit to publish.
    public var event: NostrEvent { commit.event }
}

/// A join request from a Whistle code, waiting for an admin.
public struct PendingApproval: Sendable {
    public let conversationID: String
    public let request: WhistleJoinRequest
    /// `whistle://addmember/<pubkey>/<groupId>`, for the admin's UI.
    public let approvalURL: String
}
