import InviteKitCrypto
import InviteKitInvites
import InviteKitMLS
import InviteKitNostr
import InviteKitRelay
import InviteKitStore

extension InviteKitNode {
    /// Starts joining through a signed invite or a Whistle code (`JoinClient.start` tells them
    /// apart): checks it locally (nothing is sent for a bad one), keeps the KeyPackage's private
    /// part, and records the pending join together with the KeyPackage event and the
    /// gift-wrapped request in the outbound queue (one transaction). A Whistle join's record has
    /// no `inviteTag` (the code has none); its Welcome comes once the inviter's admin approved it
    /// (PROTOCOL §8.3 rule 5). Returns the pending join (its id is the request wrap's id).
    public func startJoin(invite url: String, name: String? = nil) throws(InviteKitError) -> PendingJoinRecord {
        try requireOpen()
        let record = try InviteKitError.mapping { try recordJoin(invite: url, name: name) }
        wake()
        return record
    }

    private func recordJoin(invite url: String, name: String?) throws -> PendingJoinRecord {
        var client = JoinClient(key: signingKey, keyPackages: keyPackages, rng: randomSource)
        let now = currentTime()
        let out = try client.start(invite: url, name: name, now: now)
        // The join's own KeyPackage: its Welcome names it, so each join gets its own answer
        // however many are under way with one inviter (issue 30).
        let reference = try KeyPackageValidator.validate(out.keyPackageEvent, now: now).reference
        let record = PendingJoinRecord(id: out.joinRequest.id, inviteURL: url, inviteTag: out.tag, inviter: out.inviter.rawRepresentation,
                                       relays: out.relays, keyPackageRef: reference, keyPackageEventID: out.keyPackageEvent.id,
                                       requestEventID: out.joinRequest.id, createdAt: now, updatedAt: now)
        try store.write { tx in
            try tx.pendingJoins.insert(record)
            try enqueue(out.keyPackageEvent, purpose: .keyPackage, relays: out.relays, in: tx, now: now)
            try enqueue(out.joinRequest, purpose: .joinRequest, relays: out.relays, in: tx, now: now)
        }
        return record
    }

    /// A Welcome or join error for one of this node's pending joins (from its inviter only), or,
    /// with ``Configuration/acceptsUnsolicitedWelcomes``, a Welcome from an admin who added this
    /// node by its key (MIP-02). Works after a restart too: everything it needs is in
    /// `pending_joins` and `key_packages`.
    func handleJoinReply(_ gift: UnwrappedGift, wrap: NostrEvent, message: SealedMessage) throws -> Bool {
        let now = currentTime()
        let active = try store.read { tx in try tx.pendingJoins.active() }
        switch message {
        case .inviteJoinError(let e):
            guard let join = active.first(where: { $0.inviter == gift.sender.rawRepresentation && $0.inviteTag == e.inviteTag }) else { return false }
            let state = try store.write { tx in
                let state = try tx.advance(join, .rejected(tag: e.inviteTag, errorType: e.errorType), reason: e.reason,
                                           at: Int64(e.timestamp.timeIntervalSince1970), now: now)
                _ = try tx.processedRequests.record(ProcessedRequest(rumorID: gift.rumor.id, wrapID: wrap.id, outcome: "join_error",
                                                                     groupID: nil, processedAt: now))
                return state
            }
            guard case .joinFailed(_, let error) = state else { return true }
            emit(.joinRefused(joinID: join.id, e, error: error))
            return true
        case .welcome:
            let fromInviter = active.filter { $0.inviter == gift.sender.rawRepresentation }
            guard !fromInviter.isEmpty || configuration.acceptsUnsolicitedWelcomes else { return false }
            let opened: MarmotWelcomeJoin
            do {
                opened = try MarmotMLSGroup.openWelcome(gift: gift, recipient: signingKey, store: keyPackages)
            } catch {
                // A Welcome naming one of this inviter's joins' KeyPackages that cannot be opened
                // ends that join with its typed failure (issue 31, D7).
                let named = (try? MarmotMLSGroup.keyPackageReferences(ofWelcomeRumor: gift.rumor)) ?? []
                if let join = fromInviter.first(where: { $0.keyPackageRef.map(named.contains) == true }) {
                    failJoin(join, error: InviteKitError.from(error), now: now)
                    return true
                }
                throw error
            }
            // The Welcome answers the join whose KeyPackage it was made for, never merely the
            // inviter's oldest join (issue 30); records from before the reference was kept
            // match by their KeyPackage event.
            let join = fromInviter.first { $0.keyPackageRef == opened.reference }
                ?? fromInviter.first { $0.keyPackageRef == nil && $0.keyPackageEventID == opened.parsed.keyPackageEventID }
            guard join != nil || configuration.acceptsUnsolicitedWelcomes else { return false }
            guard let reference = opened.treeChunks else {
                do {
                    try completeJoin(try MarmotMLSGroup.join(opened, store: keyPackages), join: join, gift: gift, wrap: wrap)
                } catch {
                    guard let join else { throw error }
                    failJoin(join, error: InviteKitError.from(error), now: now)
                }
                return true
            }
            // The tree is out of band: fetch its chunks without holding up the node's other work.
            guard treeChunkFetches.insert(wrap.id).inserted else { return true }
            let pools = try treeChunkPools(welcomeRelays: opened.relays, join: join)
            let deadline = ContinuousClock.now.advanced(by: configuration.treeChunkTimeout)
            Task {
                let events = await TreeChunkFetch.fetch(reference, from: pools, deadline: deadline, requestTimeout: configuration.relayTimeout)
                for pool in pools { await pool.close() }
                self.finishJoin(opened, treeChunkEvents: events, join: join, gift: gift, wrap: wrap)
            }
            return true
        case .joinRequest, .other:
            return false
        }
    }
}

extension InviteKitNode {
    /// Where a Welcome's chunks are asked for (PROTOCOL §5.11): the Welcome's own relays (those
    /// that are valid relay URLs, at most ``maxWelcomeRelays``), then the join's and the node's.
    private func treeChunkPools(welcomeRelays: [String], join: PendingJoinRecord?) throws -> [RelayPool] {
        let first = Self.welcomeRelays(welcomeRelays)
        let own = ((join?.relays ?? []) + (try defaultRelays())).reduce(into: [String]()) { if !$0.contains($1) && !first.contains($1) { $0.append($1) } }
        return [first, own].filter { !$0.isEmpty }.map { RelayPool($0.map { configuration.connector($0) }) }
    }

    /// A Welcome names its relays; a longer list is cut, so a Welcome cannot make the node dial
    /// without bound.
    static let maxWelcomeRelays = 8

    /// Completes a join whose tree came in chunks: joins, or reports why not (the join stays
    /// pending, its KeyPackage kept, and the same wrap is tried again when a relay sends it again).
    private func finishJoin(_ opened: MarmotWelcomeJoin, treeChunkEvents: [NostrEvent], join: PendingJoinRecord?,
                            gift: UnwrappedGift, wrap: NostrEvent) {
        defer { treeChunkFetches.remove(wrap.id) }
        do {
            // The join may have ended while the chunks came (another answer, a restart's catch-up).
            if let join, let current = try store.read({ tx in try tx.pendingJoins.get(id: join.id) }),
               (try? JoinStateMachine(resuming: current)) == nil { return }
            try completeJoin(try MarmotMLSGroup.join(opened, treeChunkEvents: treeChunkEvents, store: keyPackages), join: join, gift: gift, wrap: wrap)
        } catch {
            let mapped = InviteKitError.from(error)
            if let join { failJoin(join, error: mapped, now: currentTime()) } else { emit(.eventRejected(eventID: wrap.id, error: mapped)) }
        }
    }

    /// Ends a join whose Welcome could not be used: stored, so a waiter in this or another process
    /// learns at once (issue 31, D7), and reported with the error the join ended with. The
    /// KeyPackage stays unconsumed.
    private func failJoin(_ join: PendingJoinRecord, error: InviteKitError, now: Int64) {
        var ended = error
        if let state = try? store.write({ tx in try tx.advance(join, .welcomeFailed(error), now: now) }),
           case .joinFailed(_, let stored) = state { ended = stored }
        emit(.welcomeFailed(joinID: join.id, error: ended))
    }

    /// Records a processed Welcome of a pending join (or of an admin's add, `join` nil).
    private func completeJoin(_ group: MarmotMLSGroup, join: PendingJoinRecord?, gift: UnwrappedGift, wrap: NostrEvent) throws {
        let now = currentTime()
        // A Whistle code names its group: a Welcome into another group is not its answer (issue 31, D8).
        if let join, let invited = JoinClient.invitedNostrGroupID(join.inviteURL), invited != Hex.encode(group.nostrGroupID) {
            throw InviteKitError(.joinFailed, underlyingCode: "welcome_for_another_group")
        }
        // A join through an invite uses the invite's relays; an admin's add, the group's own.
        let groupID = Hex.encode(group.state.groupID)
        try storeJoinedGroup(group, relays: join?.relays ?? Self.welcomeRelays(group.groupData.relays), joinID: join?.id, gift: gift, wrap: wrap) { tx in
            if let join {
                try tx.advance(join, .welcomeMatched(JoinedGroup(groupID: groupID, nostrGroupID: Hex.encode(group.nostrGroupID),
                                                                 epoch: group.epoch)), now: now)
            }
        }
    }

    /// The relays a Welcome names that the node will use: the valid relay URLs, at most
    /// ``maxWelcomeRelays`` (also where a group joined without an invite is read).
    static func welcomeRelays(_ relays: [String]) -> [String] {
        Array(relays.filter(RelayURL.isValid).prefix(maxWelcomeRelays))
    }

    /// The one place a processed Welcome becomes a group, however it was asked for (an invite,
    /// an admin's add, an invite link): `rows` (the asking path's own rows), the group, and the
    /// processed mark in one transaction; then the group in memory and `joined`. A member who
    /// joined as the last of a block of the tree fills it with a self-update (PROTOCOL §5.11), so
    /// the group's Commits stay small. Returns the group id.
    @discardableResult
    func storeJoinedGroup(_ group: MarmotMLSGroup, relays: [String], joinID: String?, gift: UnwrappedGift, wrap: NostrEvent,
                          rows: (StoreTransaction) throws -> Void) throws -> String {
        let now = currentTime()
        let groupID = Hex.encode(group.state.groupID)
        try store.write { tx in
            try rows(tx)
            try insertGroup(StoredGroup(id: groupID, nostrGroupID: Hex.encode(group.nostrGroupID), name: group.groupData.name,
                                        engine: MarmotMLSGroup.engineName, engineVersion: MarmotMLSGroup.engineVersion,
                                        state: group.serializedWithoutTree(), epoch: group.epoch, currentTag: nil,
                                        relays: relays, updatedAt: now), group: group, in: tx)
            _ = try tx.processedRequests.record(ProcessedRequest(rumorID: gift.rumor.id, wrapID: wrap.id, outcome: "welcome",
                                                                 groupID: groupID, processedAt: now))
        }
        // A new entry, also for a group this node was removed from: a new membership.
        registry[groupID] = NodeGroupEntry(group: group, inviteTag: nil, relays: relays, name: group.groupData.name)
        registry[groupID]?.joinedAt = now
        stateCommitted(group, groupID: groupID)
        emit(.joined(joinID: joinID, groupID: groupID, epoch: group.epoch))
        if group.shouldFillAfterJoin { _ = try? selfUpdateNow(groupID: groupID) }
        return groupID
    }

    /// Joins through a signed invite or a Whistle code and returns once the Welcome was
    /// processed (MIP-02): ``startJoin(invite:name:)``, then ``waitForJoin(_:timeout:)``. The
    /// relays are driven by ``run()``, which must be running in another task. Throws the
    /// inviter's refusal mapped into the taxonomy (`invite_already_used`,
    /// `conversation_expired`, …), or ``InviteKitError/Code/timedOut`` after `timeout`, when the
    /// join stays pending (``pendingJoins()``) and can be waited for again.
    public func join(_ invite: String, name: String? = nil, timeout: Duration? = nil) async throws(InviteKitError) -> NodeGroup {
        let record = try startJoin(invite: invite, name: name)
        return try await waitForJoin(record.id, timeout: timeout)
    }

    /// Waits for a pending join's answer (also one started before a restart).
    public func waitForJoin(_ joinID: String, timeout: Duration? = nil) async throws(InviteKitError) -> NodeGroup {
        try requireOpen()
        // Subscribed before the first look, so an answer between the two is not missed.
        let events = events(bufferingNewest: 16)
        if let done = try joinResult(joinID) { return try done.get() }
        wake()
        // `.some(nil)`: decided (read back below); `.some(error)`: a Welcome that could not be used.
        let outcome: InviteKitError?? = await NodeEventWait.first(in: events, timeout: timeout) { e in
            switch e {
            case .joined(let id?, _, _) where id == joinID: return .some(nil)
            case .joinRefused(let id, _, _) where id == joinID: return .some(nil)
            case .welcomeFailed(let id, let error) where id == joinID: return .some(error)
            default: return nil
            }
        }
        // A shutdown ends the wait (its stream ends): the join stays pending for the next node.
        try requireOpen()
        if let done = try joinResult(joinID) { return try done.get() }
        if let failure = outcome ?? nil { throw failure }
        throw InviteKitError(.timedOut, underlyingCode: "join_pending")
    }

    /// Joins started and not answered yet, oldest first.
    public func pendingJoins() throws(InviteKitError) -> [PendingJoinRecord] {
        try requireOpen()
        return try InviteKitError.mapping { try store.read { tx in try tx.pendingJoins.active() }.sorted { $0.createdAt < $1.createdAt } }
    }

    /// A join's outcome once decided: the group, or the refusal as an error.
    private func joinResult(_ joinID: String) throws(InviteKitError) -> Result<NodeGroup, InviteKitError>? {
        let record = try InviteKitError.mapping { try store.read { tx in try tx.pendingJoins.get(id: joinID) } }
        guard let record else { throw InviteKitError(.notFound, underlyingCode: "join_not_found") }
        switch record.state {
        case .requested: return nil
        case .joined: return .success(try group(record.groupID ?? ""))
        case .failed: return .failure(record.failure ?? InviteKitError(.joinFailed))
        case .cancelled: return .failure(InviteKitError(.joinFailed, underlyingCode: JoinStateMachine.Refusal.afterCancel.rawValue))
        }
    }
}
