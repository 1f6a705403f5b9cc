import Foundation
import InviteKitCrypto
import InviteKitNostr
import InviteKitInvites
import InviteKitMLS

/// The inviter's side of a join (REFERENCE §4).
///
/// Order for each gift-wrapped message: ignore own messages; drop duplicates (by rumor id);
/// only join requests go on; then the invite's signature and creator (nothing is ever sent for
/// a forged invite), the invite's expiry (no reply), the conversation (not found, expired or
/// revoked tag → one reply), the joiner's KeyPackage (→ one reply), and last the single-use
/// consumption (→ one reply if another join already used it). On success it builds the Commit;
/// the Welcome comes only from ``confirmCommitPublished(_:acknowledgedBy:)``.
public final class JoinRequestProcessor: @unchecked Sendable {
    public let inviter: Secp256k1.PrivateKey
    private let consumedTags: any ConsumedTagStore
    private let clock: @Sendable () -> Int64
    private let rng: RandomSource
    private let lock = NSLock()
    private var groups: [String: HostedGroup] = [:]
    private var seenRequests = Set<String>()

    public init(inviter: Secp256k1.PrivateKey, consumedTags: any ConsumedTagStore,
                clock: @escaping @Sendable () -> Int64 = { UnixTime.now() }, rng: RandomSource = SystemRandom()) {
        self.inviter = inviter; self.consumedTags = consumedTags; self.clock = clock; self.rng = rng
    }

    // MARK: Hosting

    public func host(_ group: HostedGroup) { lock.withLock { groups[group.conversationID] = group } }
    public func group(_ conversationID: String) -> HostedGroup? { lock.withLock { groups[conversationID] } }
    /// Forgets a group: later requests for it get `conversation_not_found`.
    public func removeGroup(_ conversationID: String) { lock.withLock { _ = groups.removeValue(forKey: conversationID) } }

    /// Revokes every outstanding invite of a group by rotating its tag; returns the new tag.
    @discardableResult
    public func rotateTag(_ conversationID: String) -> String? {
        lock.withLock {
            guard groups[conversationID] != nil else { return nil }
            let tag = InviteTag.generate(using: rng)
            groups[conversationID]!.currentTag = tag
            return tag
        }
    }

    /// Replaces a hosted group's session (after the caller applied other commits to it).
    public func update(_ conversationID: String, session: GroupSession) {
        lock.withLock { groups[conversationID]?.session = session }
    }

    // MARK: Processing

    public func process(_ gift: UnwrappedGift) -> JoinDecision {
        if gift.sender == inviter.publicKey { return .ignored(.ownMessage) }
        let fresh = lock.withLock { seenRequests.insert(gift.rumor.id).inserted }
        guard fresh else { return .ignored(.duplicate) }
        let request: WhistleJoinRequest
        do {
            guard case .joinRequest(let r) = try SealedMessage(gift) else { return .ignored(.notAJoinRequest) }
            request = r
        } catch {
            return .dropped(InviteKitError.from(error))
        }
        guard let inviteText = request.invite else { return .dropped(InviteKitError(.inviteInvalid, underlyingCode: "missing_invite")) }
        if let code = try? InviteCode(url: inviteText) { return whistleRequest(code, request) }
        return signedRequest(inviteText, request, joiner: gift.sender)
    }

    private func signedRequest(_ text: String, _ request: WhistleJoinRequest, joiner: Secp256k1.XOnlyPublicKey) -> JoinDecision {
        let invite: SignedInvite
        do { invite = try SignedInvite(link: text) } catch { return .dropped(InviteKitError.from(error)) }
        let snapshot = lock.withLock { groups }
        let state = InviteCreatorState(key: inviter, currentTag: { snapshot[$0]?.currentTag })
        let now = clock()
        let result = InviteValidator.validate(invite, context: InviteValidationContext(now: now, creator: state))
        let tag = invite.payload.tag
        // Silent failures first: a forged or foreign invite, then an expired one.
        if let e = result.signature.error { return .dropped(InviteKitError.from(e)) }
        if let e = result.inviteExpiry.error { return .dropped(InviteKitError.from(e)) }
        if case .failed(let e) = result.conversation, e.code != .conversationNotFound { return .dropped(InviteKitError.from(e)) }
        // Failures the joiner is told about, one reply at most.
        for outcome in [result.conversation, result.conversationExpiry, result.revocation] {
            if let e = outcome.error, let type = InviteKitError.joinErrorType(for: e.code) { return reply(type, tag: tag, to: joiner) }
        }
        guard let conversationID = result.conversationId, let group = snapshot[conversationID] else {
            return reply(.conversationNotFound, tag: tag, to: joiner)
        }
        let validated: ValidatedKeyPackage
        do { validated = try KeyPackageValidator.validate(request.keyPackage, now: now) } catch {
            return reply(.genericFailure, tag: tag, to: joiner, reason: "key package rejected")
        }
        if group.session.state.members.contains(where: { $0.identity == joiner.rawRepresentation }) {
            return reply(.genericFailure, tag: tag, to: joiner, reason: "already a member")
        }
        // Single use last, so a rejected join never burns the invite.
        if invite.payload.expiresAfterUse {
            let key = InviteValidator.consumedKey(creator: inviter.publicKey, tag: tag)
            do {
                guard try consumedTags.consume(key) else { return reply(.singleUseConsumed, tag: tag, to: joiner) }
            } catch {
                return .dropped(InviteKitError.from(error))
            }
        }
        do {
            let pending = try group.session.commit([.add(validated.keyPackage)], now: now, rng: rng)
            return .accepted(PendingJoin(conversationID: conversationID, joiner: joiner, keyPackageEventID: request.keyPackage.id,
                                         inviteTag: tag, commit: pending))
        } catch {
            return reply(.genericFailure, tag: tag, to: joiner)
        }
    }

    private func whistleRequest(_ code: InviteCode, _ request: WhistleJoinRequest) -> JoinDecision {
        let snapshot = lock.withLock { groups }
        guard code.inviterNpub == NIP19.npub(inviter.publicKey) else {
            return .dropped(InviteKitError(.inviteInvalid, underlyingCode: "creator_mismatch"))
        }
        guard let group = snapshot.values.first(where: { $0.nostrGroupID == code.groupId || $0.conversationID == code.groupId }),
              let joiner = try? NostrKeys.parsePublicKey(request.pubkey) else {
            return .dropped(InviteKitError(.conversationNotFound, underlyingCode: "conversation_not_found"))
        }
        return .needsApproval(PendingApproval(conversationID: group.conversationID, request: request,
                                              approvalURL: ApprovalURL(pubkey: joiner, groupId: code.groupId).url))
    }

    /// An admin approved a Whistle join request: validate its KeyPackage and build the Commit.
    public func approve(_ approval: PendingApproval) throws -> PendingJoin {
        guard let group = group(approval.conversationID) else { throw InviteKitError(.conversationNotFound) }
        let validated = try KeyPackageValidator.validate(approval.request.keyPackage, now: clock())
        let joiner = try NostrKeys.parsePublicKey(approval.request.pubkey)
        let pending = try group.session.commit([.add(validated.keyPackage)], now: clock(), rng: rng)
        return PendingJoin(conversationID: approval.conversationID, joiner: joiner, keyPackageEventID: approval.request.keyPackage.id,
                           inviteTag: nil, commit: pending)
    }

    /// The Commit of `pending` was stored by `relays` (at least one): apply it and release the
    /// gift-wrapped Welcome for the joiner.
    public func confirmCommitPublished(_ pending: PendingJoin, acknowledgedBy relays: [String]) throws -> [NostrEvent] {
        try lock.withLock {
            guard var group = groups[pending.conversationID] else { throw InviteKitError(.conversationNotFound) }
            let welcomes = try group.session.confirmPublished(pending.commit, acknowledgedBy: relays)
            groups[pending.conversationID] = group
            return try welcomes.map {
                try WelcomeEvent.giftWrap($0, keyPackageEventID: pending.keyPackageEventID, relays: group.relays,
                                          from: inviter, to: pending.joiner, now: clock(), rng: rng)
            }
        }
    }

    private func reply(_ type: InviteJoinError.ErrorType, tag: String, to joiner: Secp256k1.XOnlyPublicKey, reason: String? = nil) -> JoinDecision {
        let error = InviteJoinError(errorType: type, inviteTag: tag, timestamp: Date(timeIntervalSince1970: TimeInterval(clock())), reason: reason)
        do {
            let wrap = try GiftWrap.wrap(template: error.rumorTemplate(now: clock()), from: inviter, to: joiner, now: clock(), using: rng)
            return .rejected(reply: wrap, error: error)
        } catch {
            return .dropped(InviteKitError.from(error))
        }
    }
}
