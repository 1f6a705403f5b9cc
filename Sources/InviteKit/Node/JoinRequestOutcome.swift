/// What a node decided about one join request (PROTOCOL §8.3), as
/// ``NodeEvent/joinRequestDecided(requestID:groupID:outcome:)`` reports it: a value to switch
/// on, not a string to parse. Its ``description`` is the `processed_requests` outcome text
/// (docs/storage.md §6), such as `rejected:single_use_consumed`.
public enum JoinRequestOutcome: Sendable, Hashable, CustomStringConvertible {
    /// Accepted: the Commit adding the joiner is queued, and its Welcome follows a relay's `OK`.
    case accepted
    /// A Whistle code's request, waiting for an admin
    /// (``NodeEvent/approvalRequested(groupID:member:requestID:)``).
    case needsApproval
    /// Refused with the request's one `invite_join_error` reply (PROTOCOL §8.2).
    case rejected(InviteJoinError.ErrorType)
    /// Forged, expired, malformed or for another creator: nothing was sent, ever (PROTOCOL §8.3).
    case dropped(InviteKitError)
    /// Not this node's to decide: its own message, a duplicate, not a join request.
    case ignored(JoinDecision.IgnoreReason)

    init(_ decision: JoinDecision) {
        switch decision {
        case .accepted: self = .accepted
        case .needsApproval: self = .needsApproval
        case .rejected(_, let error): self = .rejected(error.errorType)
        case .dropped(let error): self = .dropped(error)
        case .ignored(let reason): self = .ignored(reason)
        }
    }

    /// The stored outcome text: `accepted`, `needs_approval`, `rejected:<error_type>`,
    /// `dropped:<code>`, `ignored:<reason>`.
    public var description: String {
        switch self {
        case .accepted: return "accepted"
        case .needsApproval: return "needs_approval"
        case .rejected(let type): return "rejected:\(type.rawValue)"
        // The case name, as rows written before this type have it.
        case .dropped(let error): return "dropped:\(error.code)"
        case .ignored(let reason): return "ignored:\(reason.rawValue)"
        }
    }
}
