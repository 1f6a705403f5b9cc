import Foundation
import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr
import InviteKitRelay
import InviteKitStore

/// The requester's side of Marmot private group invite links (PROTOCOL §5.14.16;
/// `features/group-invite-links.md`): preview, consent, refresh, withdrawal, the admins'
/// statuses and the Welcome checked against the preview the user consented to.
extension InviteKitNode {
    /// How long a request stays valid unless the caller says otherwise: seven days, within the
    /// thirty the draft allows (`InviteLinkLimits.maxDeadlineAhead`).
    public static let defaultInviteLinkRequestValidity: Int64 = 7 * 24 * 60 * 60

    /// Opens an invite link's preview (PROTOCOL §5.14.16, §5.14.4): decodes the `marmot1…` code
    /// (at most `InviteCodeV1.maxTextLength` characters, strictly), asks the code's relays for
    /// the link's kind 30444 descriptors, and decrypts and verifies the one NIP-01 replacement
    /// order selects (`InvitePreviewDescriptorEvent.select`). **It sends nothing and stores
    /// nothing**: one REQ to the code's relays, no EVENT (`features/group-invite-links.md`
    /// "Creating and sharing": opening a preview must not send a join request).
    ///
    /// Refusals: a malformed code `invite_invalid` (`invalid_invite_code`); no relay of the
    /// code answered `relay_unavailable` (`invite_link_relays_unreachable`); descriptors that do
    /// not verify `invite_invalid` (`invite_link_preview_invalid`); none at all `invite_revoked`
    /// (`invite_link_preview_not_found`: its admins took the link down, or it never existed); an
    /// expired link `invite_expired` (`invite_link_expired`).
    public func previewInviteLink(code text: String, timeout: Duration? = nil) async throws(InviteKitError) -> InviteLinkPreview {
        try requireOpen()
        return try await Self.previewInviteLink(code: text, connector: configuration.connector, timeout: timeout ?? configuration.relayTimeout,
                                                now: currentTime())
    }

    /// ``previewInviteLink(code:timeout:)`` without a node (no home, no lock): what a process
    /// shows while another one serves the home. `connector` opens the code's relays.
    public static func previewInviteLink(code text: String, connector: RelayConnector = { WebSocketRelayClient(url: $0) },
                                         timeout: Duration = .relayTimeout, now: Int64 = UnixTime.now()) async throws(InviteKitError) -> InviteLinkPreview {
        let code = try decodeInviteLinkCode(text)
        let filter = NostrFilter(authors: [Hex.encode(code.inboxPublicKey)], kinds: [InviteLinkNostr.descriptorKind])
            .tag("d", [Hex.encode(code.linkID)])
        let pool = RelayPool(code.requestRelays.map { connector($0) })
        let fetched = await pool.fetch([filter], timeout: timeout)
        await pool.close()
        guard let chosen = InvitePreviewDescriptorEvent.select(fetched.events, code: code) else {
            if !fetched.events.isEmpty || !fetched.invalidEvents.isEmpty {
                throw InviteKitError(.inviteInvalid, underlyingCode: "invite_link_preview_invalid")
            }
            if fetched.completeRelays.isEmpty { throw InviteKitError(.relayUnavailable, underlyingCode: "invite_link_relays_unreachable") }
            throw InviteKitError(.inviteRevoked, underlyingCode: "invite_link_preview_not_found")
        }
        try requireUnexpired(chosen.preview, now: now)
        return InviteLinkPreview(code: code, preview: chosen.preview, descriptorEventID: chosen.event.id,
                                 answeredRelays: fetched.completeRelays.sorted())
    }

    /// Joins through an invite link after the user's explicit Join (PROTOCOL §5.14.16, §5.14.11):
    /// makes a fresh KeyPackage, signs revision 0 of a new request with its leaf key, binding that
    /// KeyPackage and `preview` (the one the user saw), and wraps it to the code's inbox. The
    /// KeyPackage, the attempt and both events are stored in one transaction before anything is
    /// handed to a relay; ``run()`` publishes the KeyPackage to the node's relays and the code's,
    /// then, once a relay acknowledged the KeyPackage, the request to the code's relays, and
    /// retries what no relay acknowledged, also after a restart. Then a matching Welcome joins
    /// the group (``inviteLinkJoin(_:)``, ``waitForInviteLinkJoin(_:timeout:)``).
    ///
    /// `validFor` is the request's signed deadline from now (1 s … 30 days). Refusals: a
    /// malformed code or a preview that is not the code's `invite_invalid`, an expired link
    /// `invite_expired` (`invite_link_expired`), a deadline out of range `invite_invalid`.
    public func joinByInviteLink(code text: String, preview: InvitePreviewV1,
                                 validFor: Int64 = defaultInviteLinkRequestValidity) throws(InviteKitError) -> InviteLinkJoin {
        try requireOpen()
        let code = try Self.decodeInviteLinkCode(text)
        let now = currentTime()
        try Self.requireUnexpired(preview, now: now)
        guard preview.matches(code) else { throw InviteKitError(.inviteInvalid, underlyingCode: "invalid_invite_preview") }
        let joined = try InviteKitError.mapping { () throws -> InviteLinkJoin in
            let (validUntil, overflow) = now.addingReportingOverflow(validFor)
            guard validFor > 0, !overflow, validUntil > 0 else { throw MLSError(.invalidInviteRecord, "the request's deadline must be ahead") }
            let requestID = randomSource.bytes(32)
            let package = try makeInviteLinkKeyPackage(now: now)
            let attempt = try InviteLinkJoinAttempt.consent(code: code, preview: preview, requestID: requestID,
                                                            account: signingKey.publicKey.rawRepresentation,
                                                            consentKey: package.bundle.signaturePrivateKey,
                                                            keyPackageRef: package.bundle.reference, transportOffer: package.offer,
                                                            validUntil: UInt64(validUntil), now: UInt64(max(now, 0)))
            let wrap = try InviteRequestGiftWrap.make(.request(attempt.requests[0]), account: signingKey, now: now, rng: randomSource)
            let record = InviteLinkJoinRecord(requestID: Hex.encode(requestID), linkID: Hex.encode(code.linkID), codeRelays: code.requestRelays,
                                              attempt: attempt.serialized(), state: InviteLinkJoin.status(of: attempt, now: now).rawValue,
                                              validUntil: validUntil, lastRequestEventID: wrap.id, createdAt: now, updatedAt: now)
            try store.write { tx in
                try storeInviteLinkKeyPackage(package, codeRelays: code.requestRelays, in: tx, now: now)
                try tx.inviteLinkJoins.insert(record)
                // Gated on the offered KeyPackage: an admin reading the request must find it.
                try enqueue(wrap, purpose: .inviteLinkRequest, relays: code.requestRelays, gate: package.event.id, in: tx, now: now)
                tx.failPoint("node.invite_link.consent.before_commit")
            }
            return InviteLinkJoin(record: record, attempt: attempt, delivery: .queued, now: now)
        }
        wake()
        emit(.inviteLinkRequestQueued(requestID: joined.requestID, revision: 0))
        return joined
    }

    /// Sends the next revision of a request, offering a fresh KeyPackage, when the one offered
    /// went stale (consumed elsewhere, past its lifetime, or an admin reported it unusable):
    /// same context, bearer and deadline, signed by the original consent key (PROTOCOL §5.14.11).
    /// Stored and queued as ``joinByInviteLink(code:preview:validFor:)`` is; the earlier
    /// KeyPackages stay, so a Welcome for an earlier revision still joins. After revision 7 it
    /// refuses with `store_full` (`invite_capacity`): a new request needs fresh consent; a
    /// joined or withdrawn request with `invite_revoked` (`invite_request_closed`), one past its
    /// deadline with `invite_expired` (`invite_request_expired`).
    public func refreshInviteLinkRequest(_ requestID: String) throws(InviteKitError) -> InviteLinkJoin {
        try requireOpen()
        let now = currentTime()
        let (joined, revision) = try InviteKitError.mapping { () throws -> (InviteLinkJoin, UInt32) in
            var (record, attempt) = try inviteLinkAttempt(requestID)
            if attempt.welcome == nil, !attempt.withdrawn, attempt.state(at: UInt64(max(now, 0))) == .expired {
                throw InviteKitError(.inviteExpired, underlyingCode: "invite_request_expired")
            }
            let package = try makeInviteLinkKeyPackage(now: now)
            let next = try attempt.refresh(keyPackageRef: package.bundle.reference, transportOffer: package.offer, now: UInt64(max(now, 0)))
            let wrap = try InviteRequestGiftWrap.make(.request(next), account: signingKey, now: now, rng: randomSource)
            record.attempt = attempt.serialized()
            record.state = InviteLinkJoin.status(of: attempt, now: now).rawValue
            record.lastRequestEventID = wrap.id
            record.updatedAt = now
            try store.write { tx in
                try storeInviteLinkKeyPackage(package, codeRelays: record.codeRelays, in: tx, now: now)
                try tx.inviteLinkJoins.save(record)
                try enqueue(wrap, purpose: .inviteLinkRequest, relays: record.codeRelays, gate: package.event.id, in: tx, now: now)
            }
            return (InviteLinkJoin(record: record, attempt: attempt, delivery: .queued, now: now), next.tbs.revision)
        }
        wake()
        emit(.inviteLinkRequestQueued(requestID: joined.requestID, revision: revision))
        return joined
    }

    /// Withdraws a request (PROTOCOL §5.14.11): the withdrawal, signed by the consent key, closes
    /// its context across every revision and is queued for the code's relays with the stored
    /// attempt in one transaction. It never undoes a join: a joined request refuses with
    /// `invite_revoked` (`invite_request_closed`).
    public func withdrawInviteLinkRequest(_ requestID: String) throws(InviteKitError) -> InviteLinkJoin {
        try requireOpen()
        let now = currentTime()
        let joined = try InviteKitError.mapping { () throws -> InviteLinkJoin in
            var (record, attempt) = try inviteLinkAttempt(requestID)
            let withdrawal = try attempt.withdraw(now: UInt64(max(now, 0)))
            let wrap = try InviteRequestGiftWrap.make(.withdrawal(withdrawal), account: signingKey, now: now, rng: randomSource)
            record.attempt = attempt.serialized()
            record.state = InviteLinkJoin.status(of: attempt, now: now).rawValue
            record.lastRequestEventID = wrap.id
            record.updatedAt = now
            try store.write { tx in
                try tx.inviteLinkJoins.save(record)
                try enqueue(wrap, purpose: .inviteLinkRequest, relays: record.codeRelays, in: tx, now: now)
            }
            return InviteLinkJoin(record: record, attempt: attempt, delivery: .queued, now: now)
        }
        wake()
        emit(.inviteLinkWithdrawn(requestID: joined.requestID))
        return joined
    }

    /// Every join through an invite link this node consented to, oldest first.
    public func inviteLinkJoins() throws(InviteKitError) -> [InviteLinkJoin] {
        try requireOpen()
        let now = currentTime()
        return try InviteKitError.mapping {
            try store.read { tx in try InviteLinkJoin.all(in: tx, now: now) }
        }
    }

    /// One join through an invite link, by request id (`not_found`, `invite_link_join_not_found`).
    public func inviteLinkJoin(_ requestID: String) throws(InviteKitError) -> InviteLinkJoin {
        try requireOpen()
        let now = currentTime()
        return try InviteKitError.mapping {
            let (record, attempt) = try inviteLinkAttempt(requestID)
            let delivery = try store.read { tx in try InviteLinkJoin.delivery(of: record, in: tx) }
            return InviteLinkJoin(record: record, attempt: attempt, delivery: delivery, now: now)
        }
    }

    /// Waits until the request joined a group (`joined` or `joined_unassociated`) and returns it.
    /// ``run()`` must be running in another task. Throws when it ends otherwise: declined
    /// (`consent_not_allowed`, `invite_link_declined`), the link retired (`invite_revoked`,
    /// `invite_link_retired`), withdrawn (`join_failed`, `invite_request_withdrawn`), past its
    /// deadline (`invite_expired`, `invite_request_expired`), never to reach a relay
    /// (`relay_unavailable`, `invite_link_request_undeliverable`: every relay refused the request
    /// or the KeyPackage it waits for); ``InviteKitError/Code/timedOut`` after `timeout`, the
    /// request still pending. A refused Welcome does not end the wait: an admin may still send
    /// one that matches.
    public func waitForInviteLinkJoin(_ requestID: String, timeout: Duration? = nil) async throws(InviteKitError) -> InviteLinkJoin {
        try requireOpen()
        let events = events(bufferingNewest: 64)
        let deadline = timeout.map { ContinuousClock.now + $0 }
        wake()
        // Each event about the request is looked at; an `invited` status alone ends no wait.
        while true {
            if let done = try inviteLinkJoinResult(requestID) { return try done.get() }
            let left = deadline.map { $0 - ContinuousClock.now }
            if let left, left <= .zero { break }
            let moved = await NodeEventWait.first(in: events, timeout: left) { e -> Bool? in
                switch e {
                case .inviteLinkJoined(let id, _, _), .inviteLinkStatus(let id, _, _), .inviteLinkWithdrawn(let id):
                    return id == requestID ? true : nil
                case .published:
                    return true // a flush may have decided the request's delivery
                default: return nil
                }
            }
            try requireOpen()
            if moved == nil { break }
        }
        if let done = try inviteLinkJoinResult(requestID) { return try done.get() }
        throw InviteKitError(.timedOut, underlyingCode: "invite_link_join_pending")
    }

    private func inviteLinkJoinResult(_ requestID: String) throws(InviteKitError) -> Result<InviteLinkJoin, InviteKitError>? {
        let join = try inviteLinkJoin(requestID)
        if join.groupID != nil { return .success(join) }
        if let refusal = join.refusal { return .failure(refusal) }
        // Refused by every relay, or gated on a KeyPackage that was: the request can never leave.
        if join.status == .requested, join.delivery == .failed {
            return .failure(InviteKitError(.relayUnavailable, underlyingCode: "invite_link_request_undeliverable"))
        }
        return nil
    }
}

// MARK: Inbound: statuses and Welcomes

extension InviteKitNode {
    /// A kind 460 status gift wrap to this account (PROTOCOL §5.14.12): opened and checked, kept
    /// as its author's claim on the request it names, with the wrap's processed mark, in one
    /// transaction. A status naming no request of this node is marked processed and ignored; one
    /// that does not open or names another request is rejected (`eventRejected`).
    func handleInviteLinkStatus(_ gift: UnwrappedGift, wrap: NostrEvent) throws {
        let now = currentTime()
        let opened = try InviteStatusGiftWrap.open(wrap, account: signingKey)
        let requestID = Hex.encode(opened.status.context.requestID)
        let found = try store.read { tx in try tx.inviteLinkJoins.get(requestID: requestID) }
        let processed = ProcessedRequest(rumorID: gift.rumor.id, wrapID: wrap.id, outcome: "invite_link_status", groupID: found?.groupID,
                                         processedAt: now)
        guard var record = found else {
            try store.write { tx in _ = try tx.processedRequests.record(processed) }
            return
        }
        var attempt = try InviteLinkJoinAttempt(serialized: record.attempt)
        try attempt.receive(opened.status, author: opened.author)
        record.attempt = attempt.serialized()
        record.state = InviteLinkJoin.status(of: attempt, now: now).rawValue
        record.updatedAt = now
        try store.write { tx in
            try tx.inviteLinkJoins.save(record)
            _ = try tx.processedRequests.record(processed)
        }
        emit(.inviteLinkStatus(requestID: requestID, author: Hex.encode(opened.author), outcome: opened.status.outcome))
        // The status that associates an already matched Welcome completes the join.
        if let groupID = record.groupID, attempt.associatedStatus != nil, opened.status.outcome == .invited {
            emit(.inviteLinkJoined(requestID: requestID, groupID: groupID, associated: true))
        }
    }

    /// A Welcome (kind 444 rumor) whose KeyPackage one of this node's invite-link requests
    /// offered (PROTOCOL §5.14.16). It is processed tentatively: the group is made from the
    /// Welcome without consuming the KeyPackage, and its invite-links component must hold the
    /// link with the consented preview (``InviteLinkJoinAttempt/acceptWelcome(groupID:links:keyPackageRef:welcomeHash:inviter:now:)``,
    /// `invite_preview_mismatch` otherwise). Only then are the group, the consumed KeyPackage,
    /// the attempt and the processed mark stored, in one transaction. Returns `false` when no
    /// request offered the Welcome's KeyPackage (an ordinary Welcome).
    func handleInviteLinkWelcome(_ gift: UnwrappedGift, wrap: NostrEvent) throws -> Bool {
        guard let named = try? MarmotMLSGroup.keyPackageReferences(ofWelcomeRumor: gift.rumor), !named.isEmpty else { return false }
        let now = currentTime()
        var match: (InviteLinkJoinRecord, InviteLinkJoinAttempt)?
        for record in try store.read({ tx in try tx.inviteLinkJoins.all() }) where record.groupID == nil {
            // A row that does not restore offered nothing this Welcome could be checked against.
            guard let attempt = try? InviteLinkJoinAttempt(serialized: record.attempt) else { continue }
            if attempt.requests.contains(where: { named.contains($0.tbs.keyPackageRef) }) { match = (record, attempt); break }
        }
        guard var (record, attempt) = match else { return false }
        let group: MarmotMLSGroup
        let state: InviteLinkJoinState
        do {
            let tentative = TentativeKeyPackageStore(base: keyPackages)
            let opened = try MarmotMLSGroup.openWelcome(gift: gift, recipient: signingKey, store: tentative)
            guard opened.treeChunks == nil else {
                throw InviteKitError(.welcomeFailed, underlyingCode: "invite_link_out_of_band_tree")
            }
            group = try MarmotMLSGroup.join(opened, store: tentative)
            // The parsed component (MarmotGroupData reads 0x800e itself; it is not a carried one).
            let links = group.inviteLinks ?? .empty
            state = try attempt.acceptWelcome(groupID: group.state.groupID, links: links, keyPackageRef: opened.reference,
                                              welcomeHash: SHA256.hash(opened.parsed.welcomeMessage), inviter: gift.sender.rawRepresentation,
                                              now: UInt64(max(now, 0)))
            record.attempt = attempt.serialized()
        } catch {
            let refused = InviteKitError.from(error)
            record.failure = refused.underlyingCode ?? refused.code.rawValue
            record.updatedAt = now
            // A mismatch is final for this Welcome: marked processed, so a relay's replay does
            // not repeat it. Anything else may pass on a later copy (its KeyPackage is kept).
            let mismatch = (error as? MLSError)?.code == .invitePreviewMismatch
            try store.write { tx in
                try tx.inviteLinkJoins.save(record)
                if mismatch {
                    _ = try tx.processedRequests.record(ProcessedRequest(rumorID: gift.rumor.id, wrapID: wrap.id, outcome: "invite_link_welcome_refused",
                                                                         groupID: nil, processedAt: now))
                }
            }
            emit(.inviteLinkWelcomeRefused(requestID: record.requestID, error: refused))
            return true
        }
        let consumed = attempt.welcome?.keyPackageRef ?? []
        record.groupID = Hex.encode(group.state.groupID)
        record.failure = nil
        record.state = InviteLinkJoin.status(of: attempt, now: now).rawValue
        record.updatedAt = now
        let groupID = try storeJoinedGroup(group, relays: Self.welcomeRelays(group.groupData.relays), joinID: nil, gift: gift, wrap: wrap) { tx in
            try tx.keyPackages.consume(reference: consumed)
            try tx.inviteLinkJoins.save(record)
        }
        emit(.inviteLinkJoined(requestID: record.requestID, groupID: groupID, associated: state == .joined))
        return true
    }

    /// The code relays of requests still waiting for an answer: the node reads its gift wraps
    /// there too, so an admin that answers on the code's relays is heard (PROTOCOL §5.14.16).
    func inviteLinkFeedRelays() throws -> [String] {
        let now = currentTime()
        return try store.read { tx in try tx.inviteLinkJoins.all() }
            .filter { $0.groupID == nil && $0.validUntil > now }
            .flatMap(\.codeRelays)
    }
}

// MARK: Helpers

extension InviteKitNode {
    /// A fresh KeyPackage for one request revision and the offer naming its event.
    private struct InviteLinkKeyPackage {
        let event: NostrEvent
        let bundle: KeyPackageBundle
        let offer: [UInt8]
    }

    /// The offer's Welcome hints are this node's relays that the code profile allows (`wss://`,
    /// at most eight, sorted by bytes); its KeyPackage event is published there and on the code's
    /// relays, where the link's admins look.
    private func makeInviteLinkKeyPackage(now: Int64) throws -> InviteLinkKeyPackage {
        let (event, bundle) = try KeyPackageEvent.create(nostrKey: signingKey, relays: [], lastResort: false, now: now, rng: randomSource)
        let hints = Array(Set(try defaultRelays().filter(InviteRelayURLList.isValid)).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            .prefix(InviteRelayURLList.maxURLs))
        let offer = try NostrInviteOfferV1(keyPackageEventID: Hex.decode(event.id, count: 32) ?? [], welcomeHints: hints)
        return InviteLinkKeyPackage(event: event, bundle: bundle, offer: offer.encoded)
    }

    private func storeInviteLinkKeyPackage(_ package: InviteLinkKeyPackage, codeRelays: [String], in tx: StoreTransaction, now: Int64) throws {
        try tx.keyPackages.save(reference: package.bundle.reference, eventID: package.event.id, bundle: package.bundle.privateSerialization(),
                                lastResort: false, now: now)
        let relays = try tx.identity.relays()
        try enqueue(package.event, purpose: .keyPackage, relays: relays + codeRelays.filter { !relays.contains($0) }, in: tx, now: now)
    }

    private func inviteLinkAttempt(_ requestID: String) throws -> (InviteLinkJoinRecord, InviteLinkJoinAttempt) {
        guard let record = try store.read({ tx in try tx.inviteLinkJoins.get(requestID: requestID.lowercased()) }) else {
            throw InviteKitError(.notFound, underlyingCode: "invite_link_join_not_found")
        }
        return (record, try InviteLinkJoinAttempt(serialized: record.attempt))
    }

    /// Decodes a `marmot1…` code, surrounding whitespace trimmed: at most
    /// `InviteCodeV1.maxTextLength` characters, then strictly (PROTOCOL §5.14.3); a malformed
    /// one is `invite_invalid` (`invalid_invite_code`).
    public static func decodeInviteLinkCode(_ text: String) throws(InviteKitError) -> InviteCodeV1 {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return try InviteKitError.mapping { try InviteCodeV1(bech32m: trimmed) }
    }

    /// An expired link admits no new request (`features/group-invite-links.md` "Expiry,
    /// revocation and withdrawal"): `invite_expired` (`invite_link_expired`).
    static func requireUnexpired(_ preview: InvitePreviewV1, now: Int64) throws(InviteKitError) {
        if preview.isExpired(at: UInt64(max(now, 0))) {
            throw InviteKitError(.inviteExpired, underlyingCode: "invite_link_expired")
        }
    }
}
