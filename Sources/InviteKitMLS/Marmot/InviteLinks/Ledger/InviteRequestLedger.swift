import InviteKitCrypto

/// An admin's projection of the private requests to one group's invite links, as a pure value:
/// admission under the link's bearer and the request deadline, revision chains, withdrawals,
/// declines, realization, revocation by generation retirement, and the capacity bounds, with
/// nothing evicted to make room (`features/group-invite-links.md`; `foundation/invite-link-records.md`
/// "Request and refresh", "Withdrawal"; PROTOCOL §5.14.10).
///
/// The ledger decides what a request may lead to; it never decides group state. Approval is a
/// normal Add Commit that convergence selects, and the caller reports the outcome with
/// ``realize(_:requestHash:commitHash:welcomeHash:)`` or ``unrealize(commitHash:)``. The caller
/// also checks what the ledger cannot see: the offered KeyPackage and its account proof, and that
/// the entry passed in is the one in the selected group state.
public struct InviteRequestLedger: Sendable {
    public internal(set) var records: [InviteRequestContextV1: InviteRequestRecord] = [:]
    /// Link ids whose generation was retired on the selected branch.
    public internal(set) var retiredLinks: Set<[UInt8]> = []
    /// Withdrawals that arrived before any request of their context, oldest first. They bind
    /// nothing until revision zero arrives, so they take no reservation; at most
    /// ``InviteLinkLimits/openContextsPerLink`` are kept per link, the oldest dropped first.
    public internal(set) var earlyWithdrawals: [InviteWithdrawalV1] = []

    public init() {}

    public func record(for context: InviteRequestContextV1) -> InviteRequestRecord? { records[context] }

    public func state(of context: InviteRequestContextV1, at now: UInt64) -> InviteRequestState? {
        records[context]?.state(at: now)
    }

    /// Contexts of `linkID` holding an open reservation (not terminal) at `now`.
    public func openContexts(linkID: [UInt8], at now: UInt64) -> Int {
        records.values.count(where: { $0.context.linkID == linkID && !$0.state(at: now).isTerminal })
    }

    /// Reservations and tombstones of the links not retired: the group's admission count.
    public var retainedOnActiveLinks: Int {
        records.values.count(where: { !retiredLinks.contains($0.context.linkID) })
    }

    /// The requests automatic processing may turn into an Add now: on an automatic, unexpired,
    /// active `entries` link, in state `open` (so not declined, withdrawn or conflicting), and not
    /// first seen after the link expired. Each is its context's highest validated revision. The
    /// order is the contexts' encoded bytes, so two runs propose the same work.
    public func automaticCandidates(entries: [InviteLinkV1], at now: UInt64) -> [InviteRequestV1] {
        let automatic = Set(entries.filter { $0.approvalMode == .automatic && !$0.isExpired(at: now) && !retiredLinks.contains($0.linkID) }
            .map(\.linkID))
        return records.values
            .filter { automatic.contains($0.context.linkID) && !$0.timingUnverified && $0.state(at: now) == .open }
            .sorted { $0.context.encoded.lexicographicallyPrecedes($1.context.encoded) }
            .compactMap(\.governingRequest)
    }

    /// The request an admin's explicit approval would realize, or the typed reason it may not.
    /// Link expiry does not stop a manual choice over a retained request; its own deadline does.
    public func manualApproval(of context: InviteRequestContextV1, entry: InviteLinkV1?, at now: UInt64) throws -> InviteRequestV1 {
        try requireActive(entry, for: context)
        guard let record = records[context] else { throw MLSError(.notFound, "no request of this context is retained") }
        switch record.state(at: now) {
        case .open, .declined:
            guard let request = record.governingRequest else { throw MLSError(.notFound, "no validated request") }
            return request
        case .realized: throw MLSError(.inviteRequestClosed, "an Add already realized this request")
        case .withdrawn: throw MLSError(.inviteRequestClosed, "the requester withdrew this request")
        case .revoked: throw MLSError(.inviteRequestClosed, "the link's generation was retired")
        case .expired: throw MLSError(.expired, "the request's deadline has passed")
        case .conflicting: throw MLSError(.inviteUnauthorized, "conflicting refreshes make the requester's consent ambiguous")
        case .awaitingBinding: throw MLSError(.notFound, "revision zero of this request has not arrived")
        }
    }

    /// Refuses a link that is not an active entry of the selected state for `context`.
    func requireActive(_ entry: InviteLinkV1?, for context: InviteRequestContextV1) throws {
        guard let entry, entry.linkID == context.linkID, !retiredLinks.contains(entry.linkID) else {
            throw MLSError(.inviteLinkInactive, "the request's link is not active in the group")
        }
        guard entry.inboxPublicKey == context.inboxPublicKey else {
            throw MLSError(.inviteUnauthorized, "the request names another inbox than its link's")
        }
    }
}
