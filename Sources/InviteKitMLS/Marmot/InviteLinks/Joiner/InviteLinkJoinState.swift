/// Where a requester's join through an invite link stands (`features/group-invite-links.md`
/// "Admin review and realization"; PROTOCOL §5.14.11). The first that holds, in this order.
public enum InviteLinkJoinState: String, Sendable, CaseIterable {
    /// A validated Welcome matched the consented preview and an authenticated `invited` status
    /// from its inviter names it: the only state that says the request became this membership.
    case joined
    /// A validated Welcome matched the consented preview; no matching status yet. The join is
    /// not delayed, and association completes when the status arrives.
    case joinedUnassociated = "joined_unassociated"
    /// The requester withdrew the context.
    case withdrawn
    /// The signed deadline passed without a join.
    case expired
    /// An admin reported `invited`: provisional until the Welcome is validated.
    case invited
    /// Revision zero (and perhaps refreshes) were made; waiting for a decision.
    case requested
}
