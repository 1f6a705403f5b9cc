import InviteKitCrypto

/// What an admin retains of one request context (`features/group-invite-links.md` "Retention,
/// capacity and restart"; PROTOCOL §5.14.10): the validated revision chain, refreshes that wait
/// for an ancestor, and the facts that close or suppress the context. Built and changed only by
/// ``InviteRequestLedger``.
public struct InviteRequestRecord: Sendable {
    /// One admin's decline, naming the validated request it declined.
    public struct Decline: Hashable, Sendable {
        public let admin: [UInt8]
        public let requestHash: [UInt8]
    }

    /// The Add that realized the context on the selected branch, and the Welcome it made.
    public struct Realization: Hashable, Sendable {
        public let requestHash: [UInt8]
        public let commitHash: [UInt8]
        public let welcomeHash: [UInt8]
    }

    public let context: InviteRequestContextV1
    /// Validated requests: `chain[n]` has revision `n` and is a valid refresh of `chain[n - 1]`.
    public internal(set) var chain: [InviteRequestV1] = []
    /// Signed requests whose ancestors have not all arrived (a refresh before its parent).
    public internal(set) var waiting: [InviteRequestV1] = []
    /// Two distinct valid requests were seen at one revision (`conflicting_refresh`).
    public internal(set) var conflicting = false
    /// The withdrawal signed by the context's consent key; it takes effect once revision zero
    /// binds that key to the offered leaf.
    public internal(set) var withdrawal: InviteWithdrawalV1?
    public internal(set) var declines: [Decline] = []
    public internal(set) var realization: Realization?
    /// First seen after its link expired: request timestamps prove no earlier consent, so the
    /// context is manual-only.
    public internal(set) var timingUnverified: Bool
    /// Its generation was retired on the selected branch.
    public internal(set) var revoked = false

    init(context: InviteRequestContextV1, timingUnverified: Bool) {
        self.context = context
        self.timingUnverified = timingUnverified
    }

    /// The request new preparation uses: the highest validated revision of an unambiguous chain.
    public var governingRequest: InviteRequestV1? { conflicting ? nil : chain.last }

    /// Every retained request, for duplicate detection and the per-context bound.
    var retained: [InviteRequestV1] { chain + waiting }

    /// The state at Unix time `now` (``InviteRequestState`` lists the order).
    public func state(at now: UInt64) -> InviteRequestState {
        if realization != nil { return .realized }
        if withdrawal != nil, !chain.isEmpty { return .withdrawn }
        if revoked { return .revoked }
        if now >= context.validUntil { return .expired }
        if conflicting { return .conflicting }
        if chain.isEmpty { return .awaitingBinding }
        if !declines.isEmpty { return .declined }
        return .open
    }

    /// Whether `requestHash` names one of the context's validated revisions.
    public func contains(requestHash: [UInt8]) -> Bool {
        chain.contains { $0.requestHash == requestHash }
    }
}
