/// What ``InviteRequestLedger/admit(_:entry:now:)`` did with a request that passed every check
/// (PROTOCOL §5.14.10). Refusals are thrown as ``MLSError``s instead.
public enum InviteAdmission: Hashable, Sendable {
    /// Revision zero of a context: it binds the consent key and takes a reservation.
    case admitted
    /// A refresh extended the validated chain to `revision`.
    case refreshed(revision: UInt32)
    /// Retained until its ancestors arrive; a missing ancestor is recoverable, not a rejection.
    case awaitingAncestor
    /// A second distinct valid request at one revision: the context admits nothing new until the
    /// requester withdraws it and asks again in a fresh context.
    case conflicting
    /// The exact bytes were already retained.
    case duplicate
    /// The context is closed (`realized`, `withdrawn` or `revoked`): nothing was retained.
    case closed(InviteRequestState)
}
