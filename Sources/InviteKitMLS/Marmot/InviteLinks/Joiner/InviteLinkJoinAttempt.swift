import InviteKitCrypto

/// A requester device's join through one invite link, as a pure value: explicit consent makes
/// revision zero, bound to the exact KeyPackage offered and signed with its leaf key; refreshes
/// chain to it; a Welcome counts only if its group holds an entry matching the preview the user
/// consented to (`features/group-invite-links.md` "Consent and request admission", "Admin review
/// and realization", "Refresh and failed delivery"; `foundation/invite-link-records.md`;
/// PROTOCOL §5.14.11).
///
/// Opening a preview makes no attempt and sends nothing: an attempt exists only after
/// ``consent(code:preview:requestID:account:consentKey:keyPackageRef:transportOffer:validUntil:now:)``.
/// Publishing the records and processing the Welcome (tentatively, before any durable group
/// storage or KeyPackage deletion) are the caller's.
public struct InviteLinkJoinAttempt: Sendable {
    /// An admin's status claim, attributed to the account whose seal carried it; it is that
    /// account's claim, not the group's decision.
    public struct Notice: Hashable, Sendable {
        public let author: [UInt8]
        public let status: InviteStatusV1
    }

    public let context: InviteRequestContextV1
    /// The preview the user saw when consenting; never swapped for a newer descriptor.
    public let previewAtConsent: InvitePreviewV1
    /// The revision chain this device signed, revision zero first.
    public internal(set) var requests: [InviteRequestV1]
    public internal(set) var withdrawn = false
    /// Every status received for this context, in arrival order (bounded by the caller's transport).
    public internal(set) var notices: [Notice] = []
    /// The validated Welcome's hash, its inviter and group, once one matched.
    public internal(set) var welcome: (hash: [UInt8], inviter: [UInt8], groupID: [UInt8], keyPackageRef: [UInt8])?
    let bearer: SecureBytes
    let consentKey: Ed25519.PrivateKey

    /// Makes revision zero after the user's explicit Join. Refuses a preview that does not match
    /// the code (`invalid_invite_preview`), a link already expired (`expired`: link expiry stops new
    /// requests), a deadline not in `now + 1 … now + 30 days` (`invalid_invite_record`), and a
    /// consent key other than the offered leaf's (the caller passes that leaf's signing key).
    public static func consent(code: InviteCodeV1, preview: InvitePreviewV1, requestID: [UInt8], account: [UInt8],
                               consentKey: Ed25519.PrivateKey, keyPackageRef: [UInt8], transportOffer: [UInt8],
                               validUntil: UInt64, now: UInt64) throws -> InviteLinkJoinAttempt {
        guard preview.matches(code) else { throw MLSError(.invalidInvitePreview, "the preview is not the code's") }
        guard !preview.isExpired(at: now) else { throw MLSError(.expired, "the invite link has expired") }
        guard validUntil > now, validUntil - now <= InviteLinkLimits.maxDeadlineAhead else {
            throw MLSError(.invalidInviteRecord, "valid_until must be within thirty days ahead")
        }
        let context = try InviteRequestContextV1(inboxPublicKey: code.inboxPublicKey, linkID: code.linkID, requestID: requestID,
                                                 requesterAccount: account, consentKey: consentKey.publicKey, validUntil: validUntil)
        let tbs = try InviteRequestTBSV1(context: context, revision: 0, previousRequestHash: [UInt8](repeating: 0, count: 32),
                                         bearer: code.bearer, keyPackageRef: keyPackageRef, transportOffer: transportOffer)
        let request = try InviteRequestV1(signing: tbs, consentKey: consentKey)
        return InviteLinkJoinAttempt(context: context, previewAtConsent: preview, requests: [request], bearer: code.bearer, consentKey: consentKey)
    }

    // Internal, not private: `InviteLinkJoinAttempt+Serialization.swift` restores through it.
    init(context: InviteRequestContextV1, previewAtConsent: InvitePreviewV1, requests: [InviteRequestV1],
                 bearer: SecureBytes, consentKey: Ed25519.PrivateKey) {
        self.context = context
        self.previewAtConsent = previewAtConsent
        self.requests = requests
        self.bearer = bearer
        self.consentKey = consentKey
    }

    public func state(at now: UInt64) -> InviteLinkJoinState {
        if welcome != nil { return associatedStatus == nil ? .joinedUnassociated : .joined }
        if withdrawn { return .withdrawn }
        if now >= context.validUntil { return .expired }
        if notices.contains(where: { $0.status.outcome == .invited }) { return .invited }
        return .requested
    }

    /// The next revision, offering a fresh KeyPackage when the offered one went stale; signed by
    /// the original consent key, with the same context and deadline. After revision seven a new
    /// request and fresh consent are needed (`invite_capacity`).
    public mutating func refresh(keyPackageRef: [UInt8], transportOffer: [UInt8], now: UInt64) throws -> InviteRequestV1 {
        try requireOpen(now)
        guard let last = requests.last, last.tbs.revision < InviteRequestTBSV1.maxRevision else {
            throw MLSError(.inviteCapacity, "revision \(InviteRequestTBSV1.maxRevision) was the last: make a new request")
        }
        let tbs = try InviteRequestTBSV1(context: context, revision: last.tbs.revision + 1, previousRequestHash: last.requestHash,
                                         bearer: bearer, keyPackageRef: keyPackageRef, transportOffer: transportOffer)
        let next = try InviteRequestV1(signing: tbs, consentKey: consentKey)
        requests.append(next)
        return next
    }

    /// The withdrawal of this context, signed by the consent key. It closes the context across
    /// every revision; it never undoes a join.
    public mutating func withdraw(now: UInt64) throws -> InviteWithdrawalV1 {
        guard welcome == nil else { throw MLSError(.inviteRequestClosed, "already joined") }
        let withdrawal = try InviteWithdrawalV1(signing: context, consentKey: consentKey)
        withdrawn = true
        return withdrawal
    }

    /// Takes a status carried by `author`'s seal. It must be for this context and one of this
    /// device's requests (`not_found` otherwise). `declined`, `retired` and `observed` are kept as
    /// that account's claims; `invited` is provisional until the Welcome, and completes the
    /// association of an already matched Welcome from the same account.
    public mutating func receive(_ status: InviteStatusV1, author: [UInt8]) throws {
        guard status.context == context, requests.contains(where: { $0.requestHash == status.requestHash }) else {
            throw MLSError(.notFound, "the status names another request")
        }
        let notice = Notice(author: author, status: status)
        if !notices.contains(notice) { notices.append(notice) }
    }

    /// Checks a tentatively validated Welcome that consumed `keyPackageRef`, before anything about
    /// it is stored: the group's invite-links component must hold this link with the consented
    /// preview's hash and policy fields (`invite_preview_mismatch` otherwise, and a Welcome that
    /// consumed a package this attempt did not offer is `not_found`, an ordinary invitation).
    /// Returns the resulting state: `joined` if an `invited` status from `inviter` names this
    /// Welcome and a request that offered the package, else `joined_unassociated`.
    public mutating func acceptWelcome(groupID: [UInt8], links: InviteLinksV1, keyPackageRef: [UInt8], welcomeHash: [UInt8],
                                       inviter: [UInt8], now: UInt64) throws -> InviteLinkJoinState {
        guard requests.contains(where: { $0.tbs.keyPackageRef == keyPackageRef }) else {
            throw MLSError(.notFound, "the Welcome consumed a KeyPackage this request did not offer")
        }
        let p = previewAtConsent
        guard let entry = links.links.first(where: { $0.linkID == context.linkID }),
              entry.previewHash == p.previewHash, entry.inboxPublicKey == p.inboxPublicKey, entry.bearerHash == p.bearerHash,
              entry.expiresAt == p.expiresAt, entry.approvalMode == p.approvalMode else {
            throw MLSError(.invitePreviewMismatch, "the group's invite link does not match the preview consented to")
        }
        welcome = (welcomeHash, inviter, groupID, keyPackageRef)
        return state(at: now)
    }

    /// The `invited` status that associates the matched Welcome: same author as its inviter, same
    /// Welcome hash, and a request that offered the consumed package.
    public var associatedStatus: InviteStatusV1? {
        guard let welcome else { return nil }
        return notices.first { n in
            n.status.outcome == .invited && n.author == welcome.inviter && n.status.welcomeHash == welcome.hash
                && requests.contains { $0.requestHash == n.status.requestHash && $0.tbs.keyPackageRef == welcome.keyPackageRef }
        }?.status
    }

    private func requireOpen(_ now: UInt64) throws {
        guard welcome == nil else { throw MLSError(.inviteRequestClosed, "already joined") }
        guard !withdrawn else { throw MLSError(.inviteRequestClosed, "the request was withdrawn") }
        guard now < context.validUntil else { throw MLSError(.expired, "the request's deadline has passed") }
    }
}
