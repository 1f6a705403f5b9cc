import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr
import InviteKitRelay
import InviteKitStore

/// Requests to this node's invite links (PROTOCOL §5.14.15; `features/group-invite-links.md`
/// "Consent and request admission", "Admin review and realization"): kind 459 wraps to the link
/// inboxes are admitted through the group's `InviteRequestLedger`, stored in the transaction that
/// admitted them; approval is a normal Add Commit whose `invited` status is owed until the Commit
/// is applied (`invite_link_approvals`); decline is a `declined` status.
extension InviteKitNode {
    /// The group's requests, in the ledger's order (by context bytes).
    public func inviteRequests(in groupID: String) throws(InviteKitError) -> [NodeInviteRequest] {
        try requireOpen()
        return try InviteKitError.mapping {
            let row = try groupRow(groupID)
            let now = currentTime()
            return try store.read { tx in try Self.inviteRequests(ofGroup: row.id, in: tx, now: now) }
        }
    }

    /// The requests the ledger of the group with row id `rowID` holds at `now` (also read by
    /// ``NodeHome/inviteRequests(in:)``).
    static func inviteRequests(ofGroup rowID: String, in tx: StoreTransaction, now: Int64) throws -> [NodeInviteRequest] {
        let today = UInt64(max(0, now))
        let ledger = try Self.ledger(rowID, in: tx)
        let approving = Set(try tx.inviteLinks.waitingApprovals().filter { $0.groupID == rowID }.map(\.context))
        let checks = try tx.inviteLinks.offerChecks(groupID: rowID)
        return ledger.records.values.sorted { $0.context.encoded.lexicographicallyPrecedes($1.context.encoded) }.compactMap { r in
            guard let requester = Self.memberKey(bytes: r.context.requesterAccount) else { return nil }
            return NodeInviteRequest(groupID: rowID, requestID: Self.inviteRequestID(r.context), linkID: Hex.encode(r.context.linkID),
                                     requester: requester, state: r.state(at: today), revision: r.chain.last?.tbs.revision,
                                     validUntil: r.context.validUntil, timingUnverified: r.timingUnverified,
                                     approving: approving.contains(r.context.encoded),
                                     offer: NodeInviteRequest.Offer(r.governingRequest.flatMap { checks[$0.requestHash] }))
        }
    }

    /// Decides a request (admins only). Approving fetches the exact KeyPackage event its offer
    /// names (from the group's, the link's and the offer's relays), checks it is the consented
    /// package of the requester's account, and queues a normal Add Commit; the Welcome follows the
    /// Commit's relay `OK`, then the `invited` status and ``NodeEvent/inviteRequestDecided(groupID:requestID:outcome:)``.
    /// Returns the Commit's event id. Declining records the decline in the ledger and sends a
    /// `declined` status; returns `nil`.
    ///
    /// Refusals: `not_found` (no such request, or revision zero not arrived), `invite_revoked` (the
    /// link is retired, or the request was realized, withdrawn or revoked), `invite_expired` (its
    /// deadline passed), `not_permitted` (conflicting refreshes, `approval_in_flight`, `not_admin`),
    /// `key_package_unavailable`/`offer_not_found`, `key_package_invalid`/`offer_mismatch`.
    @discardableResult
    public func decideInviteRequest(_ requestID: String, in groupID: String, approve: Bool) async throws(InviteKitError) -> String? {
        try requireOpen()
        guard approve else {
            try await InviteKitError.mapping { try await declineInviteRequest(requestID, groupID: groupID) }
            wake()
            return nil
        }
        let id = try await InviteKitError.mapping { try await approveInviteRequest(requestID, groupID: groupID) }
        wake()
        return id
    }

    // MARK: ids and ledgers

    /// A request's id: lowercase hex SHA-256 of its encoded context.
    static func inviteRequestID(_ context: InviteRequestContextV1) -> String { Hex.encode(SHA256.hash(context.encoded)) }

    static func ledger(_ groupID: String, in tx: StoreTransaction) throws -> InviteRequestLedger {
        try tx.inviteLinks.ledger(groupID: groupID).map { try InviteRequestLedger(serialized: $0) } ?? InviteRequestLedger()
    }

    /// The request's context, its ledger and its link's stored generation.
    private func inviteRequest(_ requestID: String, groupID: String) throws -> (InviteRequestContextV1, InviteRequestLedger, InviteLinkGeneration) {
        let (ledger, links) = try store.read { tx in (try Self.ledger(groupID, in: tx), try tx.inviteLinks.all(groupID: groupID)) }
        let wanted = requestID.lowercased()
        // The requester's node names its request by the hex `request_id` (§5.14.16): accepted too,
        // when one context of the group has it (another requester may pick the same bytes).
        var matches = ledger.records.keys.filter { Self.inviteRequestID($0) == wanted }
        if matches.isEmpty { matches = ledger.records.keys.filter { Hex.encode($0.requestID) == wanted } }
        guard matches.count <= 1 else { throw InviteKitError(.notFound, underlyingCode: "ambiguous_request") }
        guard let context = matches.first else { throw InviteKitError(.notFound, underlyingCode: "no_such_request") }
        guard let row = links.first(where: { $0.linkID == Hex.encode(context.linkID) }) else {
            throw InviteKitError(.notFound, underlyingCode: "no_such_link")
        }
        return (context, ledger, try InviteLinkGeneration(serialized: row.generation))
    }

    // MARK: decisions

    private func approveInviteRequest(_ requestID: String, groupID: String) async throws -> String {
        let (row, group) = try linkAdminGroup(groupID)
        let (context, ledger, generation) = try inviteRequest(requestID, groupID: row.id)
        let now = currentTime()
        let request = try ledger.manualApproval(of: context, entry: group.inviteLinks?.link(context.linkID), at: UInt64(max(0, now)))
        try requireNoApprovalInFlight(context, groupID: row.id)
        let validated: ValidatedKeyPackage
        do {
            validated = try await fetchOffer(request, groupID: row.id, relays: row.relays + generation.code.requestRelays)
        } catch {
            // What this fetch found is the request's offer check too (a missing offer is retried).
            let (outcome, reason) = Self.offerProblem(error)
            try? recordOfferCheck(request, groupID: row.id, outcome, reason: reason, attempts: 1)
            throw error
        }
        try recordOfferCheck(request, groupID: row.id, .valid, reason: nil, attempts: 1)
        let statusRelays = await self.statusRelays(for: request, lookingIn: row.relays + generation.code.requestRelays)
        try await awaitCommitSlot(row.id)
        // Everything again on the state the Commit in flight left.
        let (row2, group2) = try linkAdminGroup(row.id)
        try requireNoCommitInFlight(row2.id)
        let (_, ledger2, _) = try inviteRequest(requestID, groupID: row2.id)
        let current = try ledger2.manualApproval(of: context, entry: group2.inviteLinks?.link(context.linkID), at: UInt64(max(0, currentTime())))
        guard current.requestHash == request.requestHash else { throw InviteKitError(.notPermitted, underlyingCode: "request_refreshed") }
        try requireNoApprovalInFlight(context, groupID: row2.id)
        let pending = try group2.commit(adding: [validated], now: currentTime(), rng: randomSource)
        let commitHash = try group2.commitMessageHash(of: pending)
        guard let welcome = pending.welcome, let requester = Self.memberKey(bytes: context.requesterAccount) else {
            throw InviteKitError(.commitRejected, underlyingCode: "no_welcome")
        }
        let join = PendingJoin(conversationID: row2.id, joiner: requester, keyPackageEventID: validated.event.id, inviteTag: nil, commit: pending)
        let at = currentTime()
        try store.write { tx in
            try queue(.join(join), requestID: nil, relays: row2.relays, in: tx, now: at)
            try tx.inviteLinks.insertApproval(InviteLinkApprovalRecord(commitEventID: pending.event.id, groupID: row2.id, context: context.encoded,
                                                                       requestHash: current.requestHash, commitHash: commitHash,
                                                                       welcomeHash: SHA256.hash(welcome), statusRelays: statusRelays,
                                                                       createdAt: at))
        }
        pendingCommits[pending.event.id] = .join(join)
        return pending.event.id
    }

    private func requireNoApprovalInFlight(_ context: InviteRequestContextV1, groupID: String) throws {
        let waiting = try store.read { tx in try tx.inviteLinks.waitingApprovals() }
        if waiting.contains(where: { $0.groupID == groupID && $0.context == context.encoded }) {
            throw InviteKitError(.notPermitted, underlyingCode: "approval_in_flight")
        }
    }

    /// The exact kind 30443 event the request's offer names, validated now, by the requester's
    /// account, with the consented KeyPackageRef.
    func fetchOffer(_ request: InviteRequestV1, groupID: String, relays: [String]) async throws -> ValidatedKeyPackage {
        let offer = request.tbs.offer
        let eventID = Hex.encode(offer.keyPackageEventID)
        let pool = RelayPool(Array(Set(relays + offer.welcomeHints)).sorted().map { configuration.connector($0) })
        let fetched = await pool.fetch([NostrFilter(ids: [eventID])], timeout: configuration.relayTimeout)
        await pool.close()
        guard let event = fetched.events.first(where: { $0.id == eventID }) else {
            throw InviteKitError(.keyPackageUnavailable, underlyingCode: "offer_not_found")
        }
        let validated = try KeyPackageValidator.validate(event, now: currentTime())
        guard validated.reference == request.tbs.keyPackageRef,
              validated.keyPackage.leafNode.credential.identity == request.tbs.context.requesterAccount else {
            throw InviteKitError(.keyPackageInvalid, underlyingCode: "offer_mismatch")
        }
        return validated
    }

    private func declineInviteRequest(_ requestID: String, groupID: String) async throws {
        let (row, _) = try linkAdminGroup(groupID)
        let (context, ledger, generation) = try inviteRequest(requestID, groupID: row.id)
        guard let governing = ledger.record(for: context)?.governingRequest else { throw InviteKitError(.notFound, underlyingCode: "no_such_request") }
        let relays = await statusRelays(for: governing, lookingIn: row.relays + generation.code.requestRelays)
        let (_, group) = try linkAdminGroup(row.id)
        let now = currentTime()
        let status: InviteStatusV1 = try store.write { tx in
            var ledger = try Self.ledger(row.id, in: tx)
            let request = try ledger.manualApproval(of: context, entry: group.inviteLinks?.link(context.linkID), at: UInt64(max(0, now)))
            try ledger.decline(context, requestHash: request.requestHash, by: publicKey.rawRepresentation, at: UInt64(max(0, now)))
            try tx.inviteLinks.saveLedger(groupID: row.id, ledger.serialized(), now: now)
            let status = try InviteStatusV1(context: context, requestHash: request.requestHash, outcome: .declined)
            try queueInviteStatus(status, relays: relays, in: tx, now: now)
            return status
        }
        // The other admins stop automatic processing of it too (best effort: a decline gates nothing).
        try? shareInviteDecision(status, groupID: row.id)
        emit(.inviteRequestDecided(groupID: row.id, requestID: Self.inviteRequestID(status.context), outcome: .declined))
    }

    /// Where a status to the requester goes (`transports/nostr-invite-links.md` "Status
    /// delivery"): the requester's signed kind 10050 inbox relays, read from `relays`, plus the
    /// offer's `welcome_hints`. Without either, nowhere: no destination is guessed.
    func statusRelays(for request: InviteRequestV1, lookingIn relays: [String]) async -> [String] {
        guard let requester = Self.memberKey(bytes: request.tbs.context.requesterAccount) else { return request.tbs.offer.welcomeHints }
        let pool = RelayPool(Array(Set(relays)).sorted().map { configuration.connector($0) })
        let lists = await AccountRelayFetch.fetch(from: pool, authors: [requester], timeout: configuration.relayTimeout)
        await pool.close()
        return Array(Set((lists[requester]?.inboxRelays ?? []) + request.tbs.offer.welcomeHints)).sorted()
    }

    /// Queues a kind 460 status to the requester on `relays` (``statusRelays(for:lookingIn:)``);
    /// none queues nothing. A status never delays or gates anything else.
    func queueInviteStatus(_ status: InviteStatusV1, relays: [String], in tx: StoreTransaction, now: Int64) throws {
        guard !relays.isEmpty else { return }
        let wrap = try InviteStatusGiftWrap.make(status, admin: signingKey, now: now, rng: randomSource)
        try enqueue(wrap, purpose: .inviteLinkStatus, relays: relays, in: tx, now: now)
    }

    // MARK: inbox

    /// Where the node listens for requests: the `wss://` relays of its live links, for kind 1059
    /// wraps `p`-tagged with their inboxes.
    func inviteInboxPlan() throws -> (relays: [String], inboxes: [String]) {
        let rows = try store.read { tx in try tx.inviteLinks.all() }.filter { $0.state == .active || $0.state == .activating }
        var relays = Set<String>(), inboxes = Set<String>()
        for row in rows where registry[row.groupID].map({ !$0.removed }) ?? false {
            let generation = try InviteLinkGeneration(serialized: row.generation)
            relays.formUnion(generation.code.requestRelays)
            inboxes.insert(Hex.encode(generation.entry.inboxPublicKey))
        }
        return (relays.sorted(), inboxes.sorted())
    }

    /// Opens, replaces or closes the inbox feed as the live links change (from ``run()``'s round).
    func refreshInviteInboxFeed() async throws {
        let plan = try inviteInboxPlan()
        let key = plan.relays + ["#p"] + plan.inboxes
        if let old = runtime?.inviteInboxes, old.key != key {
            runtime?.inviteInboxes = nil
            await old.close()
        }
        guard runtime?.inviteInboxes == nil, !plan.inboxes.isEmpty else { return }
        let filter = NostrFilter(kinds: [GiftWrap.wrapKind]).tag("p", plan.inboxes)
        let feed = await openFeed(key: key, relays: plan.relays, filters: [filter]) { node, event in
            await node.receive(inviteWrap: event)
        }
        if runtime == nil { await feed.close() } else { runtime?.inviteInboxes = feed }
    }

    private func receive(inviteWrap: NostrEvent) {
        do {
            if try handleInviteRequestWrap(inviteWrap) { wake() }
        } catch {
            emit(.eventRejected(eventID: inviteWrap.id, error: error))
        }
    }

    /// Admits one kind 1059 wrap to a link inbox of this node through the group's ledger, in one
    /// transaction. `false` for a wrap to no inbox of this node or a duplicate; throws the typed
    /// refusal (a retired link's request: `invite_revoked`; a bad bearer: `not_permitted`; …).
    @discardableResult
    func handleInviteRequestWrap(_ wrap: NostrEvent) throws(InviteKitError) -> Bool {
        try InviteKitError.mapping { try admitInviteRequestWrap(wrap) }
    }

    private func admitInviteRequestWrap(_ wrap: NostrEvent) throws -> Bool {
        let inboxes = wrap.tags.filter { $0.count >= 2 && $0[0] == "p" }.map { $0[1] }
        guard inboxes.count == 1 else { return false }
        let rows = try store.read { tx in try tx.inviteLinks.all() }.filter { $0.state != .failed }
        for row in rows {
            let generation = try InviteLinkGeneration(serialized: row.generation)
            guard Hex.encode(generation.entry.inboxPublicKey) == inboxes[0] else { continue }
            let operation = try InviteRequestGiftWrap.open(wrap, inboxKey: try generation.inboxKey)
            let group = try currentGroup(row.groupID)
            guard group.isAdmin else { throw InviteKitError(.notPermitted, underlyingCode: "not_admin") }
            // The entry the ledger admits against is the selected state's, byte for byte.
            let entry = group.inviteLinks?.link(generation.entry.linkID).flatMap { $0 == generation.entry ? $0 : nil }
            let now = currentTime()
            let admitted: Bool = try store.write { tx in
                var ledger = try Self.ledger(row.groupID, in: tx)
                let fresh: Bool
                switch operation {
                case .request(let request): fresh = try ledger.admit(request, entry: entry, now: UInt64(max(0, now))) != .duplicate
                case .withdrawal(let withdrawal):
                    _ = try ledger.withdraw(withdrawal, at: UInt64(max(0, now)))
                    fresh = true
                }
                if fresh { try tx.inviteLinks.saveLedger(groupID: row.groupID, ledger.serialized(), now: now) }
                return fresh
            }
            if admitted, let requester = Self.memberKey(bytes: operation.context.requesterAccount) {
                emit(.inviteRequestReceived(groupID: row.groupID, requestID: Self.inviteRequestID(operation.context), requester: requester))
            }
            return admitted
        }
        return false
    }
}
