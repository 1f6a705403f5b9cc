/// Where one request context stands for an admin (`features/group-invite-links.md` "Admin review
/// and realization", "Expiry, revocation and withdrawal"; PROTOCOL §5.14.10). The first that holds,
/// in this order, is the state.
public enum InviteRequestState: String, Sendable, CaseIterable {
    /// An Add of the offered KeyPackage was realized on the selected branch: no second Add.
    case realized
    /// The requester's original consent key withdrew the context.
    case withdrawn
    /// The context's link generation was retired: every unfulfilled request of it is cancelled.
    case revoked
    /// Its signed `valid_until` has passed: never actionable again, even on replay.
    case expired
    /// Two distinct valid requests share a revision: consent is ambiguous, nothing new is admitted.
    case conflicting
    /// A refresh or withdrawal arrived before its revision zero; it waits for that binding.
    case awaitingBinding = "awaiting_binding"
    /// An admin declined it: automatic processing stops; a manual approval may still realize it.
    case declined
    /// Actionable: manual approval, and automatic admission where the link allows it.
    case open

    /// Terminal states hold a tombstone; the others hold one of the link's open reservations.
    public var isTerminal: Bool {
        switch self {
        case .realized, .withdrawn, .revoked, .expired: return true
        case .conflicting, .awaitingBinding, .declined, .open: return false
        }
    }
}
