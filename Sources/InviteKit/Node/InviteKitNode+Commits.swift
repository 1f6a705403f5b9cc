import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr
import InviteKitRelay
import InviteKitStore

/// Own Commits: built, stored as waiting and queued in one transaction; applied only once a
/// relay acknowledged them (MIP-03), in the transaction that records that `OK`.
extension InviteKitNode {
    /// Groups with an own Commit in flight, or a convergence pass collecting (PROTOCOL §5.13,
    /// "Passes"). A second Commit on the same epoch would let other members follow a branch the
    /// node abandons, so each group has at most one; and none is built on a state a pass is
    /// about to change.
    var busyGroups: Set<String> { Set(pendingCommits.values.map(\.groupID)).union(collectingGroups) }

    /// The group's current engine state, hosted or joined.
    func currentGroup(_ groupID: String) throws -> MarmotMLSGroup {
        if let damage = damagedGroups[groupID] { throw damage }
        guard let group = registry[groupID]?.group else { throw InviteKitError(.groupNotFound) }
        return group
    }

    /// Adds the author of a KeyPackage event (kind 30443, MIP-00) to a group this node hosts as
    /// its admin, without an invite: the way Marmot clients add a user they know by npub. The
    /// Welcome is gift-wrapped to the author once a relay acknowledged the Commit (MIP-02).
    /// Returns the Commit's event id.
    func addMember(keyPackage event: NostrEvent, groupID: String) throws -> String {
        let row = try groupRow(groupID)
        if try currentGroup(row.id).state.memberIdentities.contains(try event.authorKey().rawRepresentation) {
            throw InviteKitError(.notPermitted, underlyingCode: "already_a_member")
        }
        try requireNoCommitInFlight(row.id)
        guard let hosted = hostedGroup(row.id) else { throw InviteKitError(.notPermitted, underlyingCode: "not_hosted") }
        return try submit(.join(processor.add(event, to: hosted)), relays: row.relays)
    }

    /// Adds `member` to a group this node hosts as its admin: fetches their KeyPackage events
    /// (kind 30443, MIP-00) from the group's relays, commits the one PROTOCOL §4.4 selects,
    /// and sends the Welcome once a relay acknowledged the Commit (MIP-02; ``run()`` publishes).
    /// Returns the Commit's event id; ``NodeEvent/commitConfirmed(groupID:commitEventID:epoch:)``
    /// follows.
    public func addMember(_ member: Secp256k1.XOnlyPublicKey, to groupID: String) async throws(InviteKitError) -> String {
        try requireOpen()
        let id = try await InviteKitError.mapping {
            let row = try groupRow(groupID)
            let pool = RelayPool(row.relays.map { configuration.connector($0) })
            defer { Task { await pool.close() } }
            return try await addMember(member, groupID: row.id, pool: pool, timeout: configuration.relayTimeout)
        }
        wake()
        return id
    }

    /// Fetches `member`'s KeyPackage events from `pool` and adds the one
    /// `KeyPackageValidator.select` chooses (PROTOCOL §4.4). Returns the Commit's event id.
    func addMember(_ member: Secp256k1.XOnlyPublicKey, groupID: String, pool: RelayPool,
                   timeout: Duration = .relayTimeout) async throws -> String {
        let (events, _) = await KeyPackageFetch.fetch(from: pool, author: member, timeout: timeout)
        guard let chosen = KeyPackageValidator.select(events, now: currentTime()).chosen else {
            throw InviteKitError(.keyPackageUnavailable, underlyingCode: events.isEmpty ? "none_published" : "none_valid")
        }
        try await awaitCommitSlot(groupID)
        return try addMember(keyPackage: chosen.event, groupID: groupID)
    }

    /// Removes `member` with a Commit; admins only (MIP-03, decided by the group engine). A
    /// removed admin also leaves `admin_pubkeys` (MIP-01). Applied after a relay's `OK`
    /// (``waitForCommit(_:timeout:)``). Returns the Commit's event id.
    ///
    /// While ``run()`` runs, a change to a group with an own Commit in flight waits for that
    /// Commit's outcome, then is built on the epoch it left (one Commit per group in flight);
    /// without ``run()`` nothing would resolve it, so it throws `commit_pending`.
    public func removeMember(_ member: Secp256k1.XOnlyPublicKey, groupID: String) async throws(InviteKitError) -> String {
        try requireOpen()
        // What the Commit in flight does not change is refused before waiting for it.
        _ = try InviteKitError.mapping { try removable(member.rawRepresentation, groupID: groupID) }
        try await awaitCommitSlot(groupID)
        let id = try InviteKitError.mapping { try commitRemoval(member.rawRepresentation, groupID: groupID) }
        wake()
        return id
    }

    /// The group's row and engine state, or why `member` cannot be removed from it.
    @discardableResult
    private func removable(_ member: [UInt8], groupID: String) throws -> (StoredGroup, MarmotMLSGroup) {
        let row = try groupRow(groupID)
        let group = try currentGroup(row.id)
        guard member != publicKey.rawRepresentation else { throw InviteKitError(.notPermitted, underlyingCode: "remove_self_use_leave") }
        guard group.state.memberIdentities.contains(member) else { throw InviteKitError(.notAMember, underlyingCode: "not_a_member") }
        return (row, group)
    }

    private func commitRemoval(_ member: [UInt8], groupID: String) throws -> String {
        let (row, group) = try removable(member, groupID: groupID)
        try requireNoCommitInFlight(row.id)
        var data: MarmotGroupData?
        if group.groupData.isAdmin(member) {
            var d = group.groupData
            d.admins.removeAll { $0 == member }
            data = d
        }
        let commit = try group.commit(removing: [member], groupData: data, now: currentTime(), rng: randomSource)
        return try submit(.change(groupID: row.id, commit: commit), relays: row.relays)
    }

    /// Rotates this member's leaf keys with a pure self-update Commit (any member, RFC 9420
    /// §12.4), applied after a relay's `OK`. Returns the Commit's event id. Queues behind a
    /// Commit in flight as ``removeMember(_:groupID:)`` does.
    public func selfUpdate(groupID: String) async throws(InviteKitError) -> String {
        try requireOpen()
        try await awaitCommitSlot(groupID)
        return try selfUpdateNow(groupID: groupID)
    }

    /// ``selfUpdate(groupID:)`` without waiting: `commit_pending` while a Commit is in flight.
    func selfUpdateNow(groupID: String) throws(InviteKitError) -> String {
        let id = try InviteKitError.mapping {
            let row = try groupRow(groupID)
            let group = try currentGroup(row.id)
            try Self.requireActive(row, group)
            try requireNoCommitInFlight(row.id)
            let commit = try group.selfUpdate(now: currentTime(), rng: randomSource)
            return try submit(.change(groupID: row.id, commit: commit), relays: row.relays)
        }
        wake()
        return id
    }

    /// Another Commit took the epoch first (MIP-03): raised by the engine as `MLSError`, or by
    /// ``JoinRequestProcessor`` mapped into the taxonomy with the engine's code kept.
    static func isStaleCommit(_ error: any Error) -> Bool {
        if let e = error as? MLSError { return e.code == .staleCommit }
        return (error as? InviteKitError)?.underlyingCode == MLSError.Code.staleCommit.rawValue
    }

    /// Returns once `groupID` (either id) has no own Commit in flight and no convergence pass
    /// collecting: a membership change queues behind them instead of failing (issue 30). The wait is in memory: a
    /// call that has not returned has built nothing, so a crash meanwhile loses no Commit. Only
    /// ``run()`` resolves a pending Commit, so without it this throws `commit_pending` at once,
    /// `node_shut_down` when the node is shut down meanwhile, and `timed_out`
    /// (`commit_slot_busy`) after ``Configuration/commitSlotTimeout``.
    func awaitCommitSlot(_ groupID: String) async throws(InviteKitError) {
        let id = try InviteKitError.mapping { try groupRow(groupID).id }
        let deadline = ContinuousClock.now + configuration.commitSlotTimeout
        while busyGroups.contains(id) {
            try requireOpen()
            guard runtime != nil else { throw InviteKitError(.commitPending, underlyingCode: "commit_pending") }
            guard ContinuousClock.now < deadline else { throw InviteKitError(.timedOut, underlyingCode: "commit_slot_busy") }
            // Subscribed before the look, so an outcome between the two is not missed.
            let events = events(bufferingNewest: 64)
            guard busyGroups.contains(id) else { return }
            // Bounded, so a run() that ends meanwhile is noticed by the loop's next look.
            _ = await NodeEventWait.first(in: events, timeout: .seconds(1)) { event -> Bool? in
                switch event {
                case .commitConfirmed(let g, _, _) where g == id, .commitRolledBack(let g, _, _) where g == id,
                     .convergencePassResolved(let g, _, _) where g == id: return true
                default: return nil
                }
            }
        }
    }

    func requireNoCommitInFlight(_ groupID: String) throws {
        if busyGroups.contains(groupID) { throw InviteKitError(.commitPending, underlyingCode: "commit_pending") }
    }

    func submit(_ pending: NodePendingCommit, relays: [String]) throws -> String {
        let now = currentTime()
        try store.write { tx in try queue(pending, requestID: nil, relays: relays, in: tx, now: now) }
        pendingCommits[pending.event.id] = pending
        return pending.event.id
    }

    /// Stores `pending` as waiting and queues its event, inside the caller's transaction. The
    /// caller adds it to `pendingCommits` once that transaction committed.
    func queue(_ pending: NodePendingCommit, requestID: String?, relays: [String], in tx: StoreTransaction, now: Int64) throws {
        let event = pending.event
        try tx.pendingCommits.insert(pending.record(requestID: requestID, now: now))
        try enqueue(event, purpose: .commit, relays: relays, in: tx, now: now)
    }

    /// Applies an own Commit a relay acknowledged, inside the transaction recording the `OK`:
    /// the group's new state, the Welcomes gated on the Commit, the row's resolution. A Commit
    /// overtaken by another one for its epoch is rolled back instead, and a join's adds are
    /// built again on the new epoch (returned as `next`, already queued in `tx`). The new group
    /// state is returned, not applied: the caller applies it once `tx` committed.
    func confirm(_ pending: NodePendingCommit, acknowledgedBy relay: String, waiting: PendingCommitRecord,
                 in tx: StoreTransaction, now: Int64) throws -> (events: [NodeEvent], next: NodePendingCommit?, group: MarmotMLSGroup?) {
        let groupID = pending.groupID
        let eventID = pending.event.id
        var group = try currentGroup(groupID)
        let before = Set(group.state.memberIdentities)
        let dataBefore = group.groupData
        let hostedBefore = hostedGroup(groupID)
        do {
            switch pending {
            case .join(let join):
                // An invite-link approval may come from an admin that joined the group (PROTOCOL §5.14.15).
                guard var hosted = hostedBefore ?? inviteLinkHost(groupID) else { throw InviteKitError(.notPermitted, underlyingCode: "not_hosted") }
                let release = try processor.release(join, in: &hosted, acknowledgedBy: [relay])
                // A chain: each chunk waits for the one before it (the first for the Commit), and
                // the Welcomes for the last chunk, so no Welcome names a chunk no relay stored.
                var gate = eventID
                for chunk in release.treeChunks {
                    try enqueue(chunk, purpose: .treeChunk, relays: hosted.relays, gate: gate, in: tx, now: now)
                    gate = chunk.id
                }
                for w in release.welcomes {
                    // The group's relays, and the joiner's kind-10050 inbox when its list was found.
                    let inbox = (welcomeInboxes[w.recipient] ?? []).filter { !hosted.relays.contains($0) }
                    // Held until the Add settles on the selected branch (``settleWelcomeHolds()``).
                    try enqueue(w.wrap, purpose: .welcome, relays: hosted.relays + inbox, gate: gate, heldFor: eventID, in: tx, now: now)
                }
                group = hosted.group
            case .change(_, let commit):
                _ = try group.confirmPublished(commit, acknowledgedBy: [relay], now: now)
            }
        } catch where Self.isStaleCommit(error) {
            // The engine keeps a losing own commit (in memory) that a later witness may still
            // select (PROTOCOL §5.13): carried to the node's group, whose state is unchanged.
            if case .change = pending { registry[groupID]?.group.losingOwnCommit = group.losingOwnCommit }
            try tx.pendingCommits.resolve(commitEventID: eventID, as: .rolledBack, now: now)
            var next: NodePendingCommit?
            if case .join(let join) = pending, let hosted = hostedBefore, let again = try processor.readd(join, in: hosted) {
                next = .join(again)
                try queue(.join(again), requestID: waiting.requestID, relays: hosted.relays, in: tx, now: now)
            }
            return ([.commitRolledBack(groupID: groupID, commitEventID: eventID, lostAdds: pending.addedMembers)], next, nil)
        }
        try tx.pendingCommits.resolve(commitEventID: eventID, as: .confirmed, now: now)
        try writeState(group, groupID: groupID, in: tx, now: now)
        // A change's Commit carries an UpdatePath, so it rotated this node's leaf: the
        // self-update policy's clock starts again (PROTOCOL §5.16).
        if case .change = pending { try tx.selfUpdates.record(groupID: groupID, at: now) }
        let after = Set(group.state.memberIdentities)
        let added = after.subtracting(before).sorted { $0.lexicographicallyPrecedes($1) }
        let removed = before.subtracting(after).sorted { $0.lexicographicallyPrecedes($1) }
        // A disband reports itself, not the removals it carries (group-lifecycle-v1.md).
        let disbanded = group.groupData.lifecycle == .disbanded
        let changes: [NodeEvent] = added.compactMap(Self.memberKey(bytes:)).map { .memberAdded(groupID: groupID, member: $0) }
            + (disbanded ? [] : removed.compactMap(Self.memberKey(bytes:)).map { .memberRemoved(groupID: groupID, member: $0) })
            + Self.groupDataEvents(groupID: groupID, from: dataBefore, to: group.groupData)
        return ([.commitConfirmed(groupID: groupID, commitEventID: eventID, epoch: group.epoch)] + changes, nil, group)
    }
}
