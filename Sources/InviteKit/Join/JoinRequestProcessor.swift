import Foundation
import InviteKitCrypto
import InviteKitNostr
import InviteKitInvites
import InviteKitMLS

/// The inviter's decisions (PROTOCOL.md §8), over the groups the caller passes in. It holds no
/// groups and no lock: ``InviteKitNode`` owns the registry and its store, and applies what a
/// decision changed once the transaction that records it committed.
///
/// Order for each gift-wrapped message: ignore own messages; only join requests go on; then the
/// invite's signature and creator (nothing is ever sent for a forged invite), the invite's
/// expiry (no reply), the conversation (not found, expired or revoked tag → one reply), the
/// joiner's KeyPackage (→ one reply), and last the single-use consumption (→ one reply if
/// another join already used this invite). On success it builds the Commit; the Welcome comes
/// only from ``confirmPublished(_:in:acknowledgedBy:)``. Duplicates are the caller's to drop
/// (the node records every decided request durably).
public struct JoinRequestProcessor: Sendable {
    public let inviter: Secp256k1.PrivateKey
    private let consumedTags: any ConsumedTagStore
    private let clock: @Sendable () -> Int64
    private let rng: RandomSource
    /// Every Commit and Welcome it builds fits this (PROTOCOL §5.11).
    public let budget: EventBudget

    public init(inviter: Secp256k1.PrivateKey, consumedTags: any ConsumedTagStore,
                clock: @escaping @Sendable () -> Int64 = { UnixTime.now() }, rng: RandomSource = SystemRandom(),
                budget: EventBudget = .standard) {
        self.inviter = inviter; self.consumedTags = consumedTags; self.clock = clock; self.rng = rng; self.budget = budget
    }

    /// The group among `groups` an id names: the private conversation id first, else the
    /// `h`-tag id, so an invite or code made with either finds its group.
    public static func find(_ id: String, in groups: [HostedGroup]) -> HostedGroup? {
        groups.first { $0.conversationID == id } ?? groups.first { $0.nostrGroupID == id }
    }

    /// A signed invite to `group`, made with this inviter's key. A `nil` `InviteOptions/tag`
    /// takes the group's current tag, and empty relays take the group's relays.
    public func invite(for group: HostedGroup, options: InviteOptions = InviteOptions(), using rng: RandomSource? = nil) throws(InviteKitError) -> SignedInvite {
        try InviteKitError.mapping {
            var options = options
            if options.tag == nil { options.tag = group.currentTag }
            if options.relays.isEmpty { options.relays = group.relays }
            options.mipProfile = group.group.profile == .mip
            return try SignedInvite.create(conversationID: group.conversationID, creator: inviter, options: options, using: rng ?? self.rng)
        }
    }

    // MARK: Processing

    /// Decides one gift-wrapped message. `busy` names groups with a Commit still waiting for its
    /// relay `OK`: a valid request for one of them is `.ignored(.commitPending)`, before any
    /// single-use consumption, and may be processed again later.
    public func process(_ gift: UnwrappedGift, hosted groups: [HostedGroup], busy: Set<String> = []) -> JoinDecision {
        process(gift, hosted: groups, busy: busy) { key throws(InviteError) in try consumedTags.consume(key) }
    }

    /// ``process(_:hosted:busy:)`` consuming a single-use invite through `consume` instead of the
    /// processor's store: for a caller whose consumption must commit with its own transaction
    /// (a node's decision, PROTOCOL §3.7), which it passes in per call.
    public func process(_ gift: UnwrappedGift, hosted groups: [HostedGroup], busy: Set<String> = [],
                        consume: (_ key: String) throws(InviteError) -> Bool) -> JoinDecision {
        if gift.sender == inviter.publicKey { return .ignored(.ownMessage) }
        let request: WhistleJoinRequest
        do {
            guard case .joinRequest(let r) = try SealedMessage(gift) else { return .ignored(.notAJoinRequest) }
            request = r
        } catch {
            return .dropped(InviteKitError.from(error))
        }
        guard let inviteText = request.invite else { return .dropped(InviteKitError(.inviteInvalid, underlyingCode: "missing_invite")) }
        if let code = try? InviteCode(url: inviteText) { return whistleRequest(code, request, groups: groups) }
        return signedRequest(inviteText, request, joiner: gift.sender, groups: groups, busy: busy, consume: consume)
    }

    private func signedRequest(_ text: String, _ request: WhistleJoinRequest, joiner: Secp256k1.XOnlyPublicKey,
                               groups snapshot: [HostedGroup], busy: Set<String>,
                               consume: (_ key: String) throws(InviteError) -> Bool) -> JoinDecision {
        let invite: SignedInvite
        do { invite = try SignedInvite(link: text) } catch { return .dropped(InviteKitError.from(error)) }
        let state = InviteCreatorState(key: inviter, currentTag: { Self.find($0, in: snapshot)?.currentTag })
        let now = clock()
        let result = InviteValidator.validate(invite, context: InviteValidationContext(now: now, creator: state))
        let tag = invite.payload.tag
        // The verdicts in check order; the first failure decides. The one mapping says whether
        // the joiner is told (one reply) or nothing is sent (forged, foreign, expired invites).
        for verdict in result.verdicts {
            guard let e = verdict.outcome.error else { continue }
            guard let type = InviteKitError.joinErrorType(for: e.code) else { return .dropped(InviteKitError.from(e)) }
            return reply(type, tag: tag, to: joiner)
        }
        guard let id = result.conversationID, let group = Self.find(id, in: snapshot) else {
            return reply(.conversationNotFound, tag: tag, to: joiner)
        }
        if busy.contains(group.conversationID) { return .ignored(.commitPending) }
        let validated: ValidatedKeyPackage
        do { validated = try KeyPackageValidator.validate(request.keyPackage, now: now) } catch {
            return reply(.genericFailure, tag: tag, to: joiner, reason: "key package rejected")
        }
        // Before single use is consumed: a KeyPackage of the other profile can never join
        // (PROTOCOL §5.12.1), and the invite's field 101 told the joiner which one to send.
        if validated.keyPackage.profile != group.group.profile {
            return reply(.genericFailure, tag: tag, to: joiner, reason: "key package of the other Marmot profile")
        }
        if group.group.state.memberIdentities.contains(joiner.rawRepresentation) {
            return reply(.genericFailure, tag: tag, to: joiner, reason: "already a member")
        }
        // Single use last, so a rejected join never burns the invite. This is the one place an
        // invite is consumed: the validator only reads.
        if invite.payload.expiresAfterUse {
            let key = InviteValidator.consumedKey(creator: inviter.publicKey, invite: invite)
            do {
                guard try consume(key) else { return reply(.singleUseConsumed, tag: tag, to: joiner) }
            } catch {
                return .dropped(InviteKitError.from(error))
            }
        }
        do {
            let pending = try group.group.commit(adding: [validated], budget: budget, now: now, rng: rng)
            return .accepted(PendingJoin(conversationID: group.conversationID, joiner: joiner, keyPackageEventID: request.keyPackage.id,
                                         inviteTag: tag, commit: pending))
        } catch {
            return reply(.genericFailure, tag: tag, to: joiner)
        }
    }

    private func whistleRequest(_ code: InviteCode, _ request: WhistleJoinRequest, groups snapshot: [HostedGroup]) -> JoinDecision {
        guard code.inviterNpub == NIP19.npub(inviter.publicKey) else {
            return .dropped(InviteKitError(.inviteInvalid, underlyingCode: "creator_mismatch"))
        }
        guard let group = Self.find(code.groupId, in: snapshot),
              let joiner = try? NostrKeys.parsePublicKey(request.pubkey) else {
            return .dropped(InviteKitError(.conversationNotFound, underlyingCode: "conversation_not_found"))
        }
        return .needsApproval(PendingApproval(conversationID: group.conversationID, request: request,
                                              approvalURL: ApprovalURL(pubkey: joiner, groupId: code.groupId).url))
    }

    /// An admin approved a Whistle join request: validate its KeyPackage and build the Commit.
    public func approve(_ approval: PendingApproval, in group: HostedGroup) throws(InviteKitError) -> PendingJoin {
        try InviteKitError.mapping {
            try add(approval.request.keyPackage, to: group, inviteTag: nil)
        }
    }

    /// Adds the author of a KeyPackage event to a hosted group without an invite, as an admin
    /// when `asAdmin` is `true`. Only an admin of the group can add (`not_permitted`). Publish
    /// `pending.event`, then ``confirmPublished(_:in:acknowledgedBy:)`` releases the
    /// Welcome, as for a join by invite.
    public func add(_ keyPackageEvent: NostrEvent, to group: HostedGroup, asAdmin: Bool = false) throws(InviteKitError) -> PendingJoin {
        try InviteKitError.mapping {
            try add(keyPackageEvent, to: group, inviteTag: nil, asAdmin: asAdmin)
        }
    }

    private func add(_ keyPackageEvent: NostrEvent, to group: HostedGroup, inviteTag: String?, asAdmin: Bool = false) throws -> PendingJoin {
        guard group.group.isAdmin else { throw InviteKitError(.notPermitted, underlyingCode: "not_admin") }
        let validated = try KeyPackageValidator.validate(keyPackageEvent, now: clock())
        let joiner = try keyPackageEvent.authorKey()
        var data: MarmotGroupData?
        if asAdmin {
            var d = group.group.groupData
            if !d.admins.contains(joiner.rawRepresentation) { d.admins.append(joiner.rawRepresentation) }
            data = d
        }
        let pending = try group.group.commit(adding: [validated], groupData: data, budget: budget, now: clock(), rng: rng)
        return PendingJoin(conversationID: group.conversationID, joiner: joiner, keyPackageEventID: keyPackageEvent.id,
                           inviteTag: inviteTag, commit: pending)
    }

    /// Makes an existing member an admin: a Commit whose GroupContextExtensions proposal puts
    /// `member` into the Marmot group data's `admin_pubkeys` (MIP-01; RFC 9420 §12.1.7). Only an
    /// admin can promote (`not_permitted`/`not_admin`), and only a member who is not an admin yet
    /// (`not_permitted`/`not_a_member`, `already_admin`). Publish `change.event`, then
    /// ``confirmPublished(change:in:acknowledgedBy:)`` applies it.
    public func promote(_ member: Secp256k1.XOnlyPublicKey, in hosted: HostedGroup) throws(InviteKitError) -> PendingGroupChange {
        try InviteKitError.mapping {
            guard hosted.group.isAdmin else { throw InviteKitError(.notPermitted, underlyingCode: "not_admin") }
            let id = member.rawRepresentation
            guard hosted.group.state.members.contains(where: { $0.identity == id }) else {
                throw InviteKitError(.notPermitted, underlyingCode: "not_a_member")
            }
            var data = hosted.group.groupData
            guard !data.isAdmin(id) else { throw InviteKitError(.notPermitted, underlyingCode: "already_admin") }
            data.admins.append(id)
            return PendingGroupChange(conversationID: hosted.conversationID, commit: try hosted.group.commit(groupData: data, now: clock(), rng: rng))
        }
    }

    /// The Commit of `change` was stored by `relays` (at least one): apply it to `hosted`.
    public func confirmPublished(change: PendingGroupChange, in hosted: inout HostedGroup, acknowledgedBy relays: [String]) throws(InviteKitError) {
        try InviteKitError.mapping {
            _ = try hosted.group.confirmPublished(change.commit, acknowledgedBy: relays, now: clock())
        }
    }

    /// The Commit of `pending` was stored by `relays` (at least one): apply it to `hosted` and
    /// release what the joiners need (MIP-02, PROTOCOL §5.11): the ratchet-tree chunk events when
    /// the tree does not fit a Welcome, then one gift-wrapped Welcome per joiner, each within
    /// ``budget``. The only place InviteKit releases a Welcome.
    public func release(_ pending: PendingJoin, in hosted: inout HostedGroup, acknowledgedBy relays: [String]) throws(InviteKitError) -> MarmotCommitRelease {
        try InviteKitError.mapping {
            try hosted.group.confirmPublished(pending.commit, acknowledgedBy: relays, wrappingWelcomesFrom: inviter, budget: budget, now: clock(), rng: rng)
        }
    }

    /// ``release(_:in:acknowledgedBy:)`` as one list, in publishing order: every chunk must be
    /// stored before the first Welcome goes out.
    public func confirmPublished(_ pending: PendingJoin, in hosted: inout HostedGroup, acknowledgedBy relays: [String]) throws(InviteKitError) -> [NostrEvent] {
        try InviteKitError.mapping {
            try release(pending, in: &hosted, acknowledgedBy: relays).events
        }
    }

    // MARK: Group events

    /// What one kind-445 event did to a hosted group, and the re-adds it made necessary.
    public struct GroupReceipt: Sendable {
        public let outcomes: [MarmotOutcome]
        /// What the caller must save (the group's state, its buffer, or nothing: junk).
        public let receipt: MarmotReceipt
        /// At most one commit re-adding, in the new epoch, every member this inviter added on a
        /// branch that lost a commit race (MIP-03 ordering). Publish ``PendingJoin/event`` and
        /// confirm it as for any join: only then do the joiners get their new Welcomes.
        public let readds: [PendingJoin]
    }

    /// Feeds one kind-445 event to `hosted`. When a rollback names adds this inviter lost, their
    /// KeyPackages are added again on the winning branch (next to the rollback, MIP-03).
    public func receive(_ event: NostrEvent, in hosted: inout HostedGroup) throws(InviteKitError) -> GroupReceipt {
        try InviteKitError.mapping {
            let receipt = hosted.group.ingest(event: event, now: clock(), budget: budget)
            let outcomes = receipt.outcomes
            let lost = outcomes.flatMap { o -> [MarmotLostAdd] in
                if case let .rolledBack(_, _, lostAdds) = o { return lostAdds }
                return []
            }
            // Most events roll nothing back: no member set is built for them.
            guard !lost.isEmpty else { return GroupReceipt(outcomes: outcomes, receipt: receipt, readds: []) }
            let readd = try Self.readd(lost.compactMap(\.keyPackageEvent), in: hosted, budget: budget, now: clock(), rng: rng)
            return GroupReceipt(outcomes: outcomes, receipt: receipt, readds: readd.map { [$0] } ?? [])
        }
    }

    /// Builds again, on the group's current epoch, the adds of a join Commit that another Commit
    /// overtook before a relay acknowledged it (``confirmPublished(_:in:acknowledgedBy:)`` failed
    /// with `stale_commit`). `nil` when every joiner is a member by now.
    public func readd(_ overtaken: PendingJoin, in hosted: HostedGroup) throws(InviteKitError) -> PendingJoin? {
        try InviteKitError.mapping {
            guard let readd = try Self.readd(overtaken.commit.keyPackageEvents, in: hosted, budget: budget, now: clock(), rng: rng) else { return nil }
            return PendingJoin(conversationID: readd.conversationID, joiner: readd.joiner, keyPackageEventID: readd.keyPackageEventID,
                               inviteTag: overtaken.inviteTag, commit: readd.commit)
        }
    }

    /// The one re-add rule: every KeyPackage whose author is not a member and which still
    /// validates goes into one Commit on the current epoch (admins only).
    private static func readd(_ keyPackageEvents: [NostrEvent], in hosted: HostedGroup, budget: EventBudget, now: Int64, rng: RandomSource) throws -> PendingJoin? {
        let members = Set(hosted.group.state.memberIdentities)
        var validated: [(ValidatedKeyPackage, Secp256k1.XOnlyPublicKey)] = []
        for kp in keyPackageEvents {
            guard let joiner = try? kp.authorKey(), !members.contains(joiner.rawRepresentation),
                  !validated.contains(where: { $0.1 == joiner }),
                  let v = try? KeyPackageValidator.validate(kp, now: now) else { continue }
            validated.append((v, joiner))
        }
        guard let first = validated.first, hosted.group.isAdmin else { return nil }
        // One Commit carries every re-add; it is confirmed once, and its Welcomes go to each joiner.
        let pending = try hosted.group.commit(adding: validated.map(\.0), budget: budget, now: now, rng: rng)
        return PendingJoin(conversationID: hosted.conversationID, joiner: first.1, keyPackageEventID: first.0.event.id, inviteTag: nil, commit: pending)
    }

    /// The one reply for an accepted join whose Commit no relay stored (it was rolled back): a
    /// gift-wrapped `generic_failure` naming the invite's tag (PROTOCOL §8.2). `nil` for a join
    /// without an invite tag (an admin's add, a Whistle approval), which has no request to answer.
    public func refusal(of pending: PendingJoin, reason: String) -> NostrEvent? {
        guard let tag = pending.inviteTag, case .rejected(let wrap, _) = reply(.genericFailure, tag: tag, to: pending.joiner, reason: reason) else {
            return nil
        }
        return wrap
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
