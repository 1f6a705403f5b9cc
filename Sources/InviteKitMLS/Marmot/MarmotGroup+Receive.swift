import InviteKitCrypto
import InviteKitNostr

extension MarmotGroup {
    /// Processes one kind-445 event of this group. Returns its outcome, followed by the outcomes of
    /// buffered events that it made readable: an epoch change opens events sealed for the new
    /// epoch, a proposal lets a commit that references it apply. ``ingest(event:now:)`` also says
    /// what changed, so a caller saves only that.
    public mutating func receive(event: NostrEvent, now: Int64 = UnixTime.now()) -> [MarmotOutcome] {
        ingest(event: event, now: now).outcomes
    }

    /// ``receive(event:now:)`` with what the caller must save (PROTOCOL.md §5.9). An event over
    /// ``MarmotProfile/maxGroupEventContentBytes`` is refused before any other work; one that no
    /// retained epoch's key opens costs one failed AEAD open per key, changes no state and goes to
    /// ``buffer`` (whose evictions are reported as ``MarmotOutcome/evicted(eventID:)``).
    ///
    /// `budget` is the event budget this member also sends with (PROTOCOL §5.11): content up to
    /// its bound is taken (at least ``MarmotProfile/maxGroupEventContentBytes``), so what we
    /// allow ourselves to send we accept (issue 31).
    public mutating func ingest(event: NostrEvent, now: Int64 = UnixTime.now(), budget: EventBudget = .standard) -> MarmotReceipt {
        let bound = max(budget.maxEventBytes, MarmotProfile.maxGroupEventContentBytes)
        let seenBefore = seenLog.revision
        let first = receiveOne(event, now: now, maxContentBytes: bound)
        var outcomes = first.outcomes
        // Which event each outcome is about: a buffered event's outcome is its own, not the
        // event that made it readable.
        var sources = Array(repeating: event.id, count: outcomes.count)
        var stateChanged = first.changed
        var bufferChanged = false
        if first.buffer {
            bufferChanged = true
            for evicted in buffer.append(event) {
                outcomes.append(.evicted(eventID: evicted.id))
                sources.append(evicted.id)
            }
            if profile == .current, !losingBranches.isEmpty || losingOwnCommit != nil {
                let revived = reconsiderLosingBranches(after: event, now: now)
                if !revived.isEmpty { stateChanged = true }
                outcomes += revived
                sources += Array(repeating: event.id, count: revived.count)
            }
        }
        var progress = outcomes.contains(where: Self.unblocksBuffered)
        while progress, !buffer.isEmpty {
            progress = false
            let before = buffer
            for e in buffer.removeAll() {
                let o = receiveOne(e, now: now, maxContentBytes: bound)
                if o.buffer { buffer.append(e); continue }
                stateChanged = stateChanged || o.changed
                outcomes += o.outcomes
                sources += Array(repeating: e.id, count: o.outcomes.count)
                if o.outcomes.contains(where: Self.unblocksBuffered) { progress = true }
            }
            if buffer != before { bufferChanged = true }
        }
        return MarmotReceipt(outcomes: outcomes, stateChanged: stateChanged, bufferChanged: bufferChanged, seenChanged: seenLog.revision != seenBefore,
                             outcomeEventIDs: sources)
    }

    /// One event's outcomes; `changed` when the serialized state changed, `buffer` when the
    /// event is to wait in ``buffer``.
    struct Step {
        var outcomes: [MarmotOutcome]
        var changed = false
        var buffer = false
    }

    static func unblocksBuffered(_ o: MarmotOutcome) -> Bool {
        switch o {
        case .commitApplied, .rolledBack, .leaveRequest: return true
        default: return false
        }
    }

    /// Whether a commit for an epoch this member already left displaces the commit applied there
    /// (PROTOCOL §5.9, "Removal wins"; issue 31, D1). Between two commits of one epoch where one
    /// removes the other's committer, the removing one wins, whatever the timestamps: a removed
    /// member cannot undo its removal by dating a commit of its own earlier, and every member
    /// decides alike from what both commits do. Otherwise MIP-03's order decides (earliest
    /// `created_at`, then the smallest id), which an MDK 0.8 member shares.
    static func displaces(incoming: (createdAt: Int64, id: String, info: MarmotCommitInfo), applied: Snapshot,
                          appliedRemoved: Set<[UInt8]>) -> Bool {
        let incomingRemovesApplied = !applied.committer.isEmpty && incoming.info.removed.contains(applied.committer)
        let appliedRemovesIncoming = appliedRemoved.contains(incoming.info.committer)
        switch (incomingRemovesApplied, appliedRemovesIncoming) {
        case (true, false): return true
        case (false, true): return false
        default: return precedes(incoming.createdAt, incoming.id, applied.createdAt, applied.eventID)
        }
    }

    /// `(a_created_at, a_id) < (b_created_at, b_id)`: MIP-03's order, ids compared as lowercase hex.
    static func precedes(_ aTime: Int64, _ aID: String, _ bTime: Int64, _ bID: String) -> Bool {
        aTime != bTime ? aTime < bTime : aID.lowercased() < bID.lowercased()
    }

    mutating func receiveOne(_ event: NostrEvent, now: Int64, maxContentBytes: Int = MarmotProfile.maxGroupEventContentBytes) -> Step {
        let size = event.content.utf8.count
        guard size <= maxContentBytes else {
            return Step(outcomes: [.rejected(MLSError(.tooLarge, "kind-445 content of \(size) bytes is over \(maxContentBytes)"))])
        }
        do {
            if seenLog.contains(eventID: event.id) || buffer.contains(eventID: event.id) {
                return Step(outcomes: [.duplicate])
            }
            let (groupID, sealed) = try MarmotGroupEvent.envelope(event, profile: profile, now: now)
            guard groupID == nostrGroupID else { return Step(outcomes: [.rejected(MLSError(.wrongGroup, "h tag names another group"))]) }
            let hash = SHA256.hash(Array(event.content.utf8))
            if seenLog.contains(contentHash: hash) {
                // The same ciphertext in another wrapper: never a new commit, but the better wrapper
                // becomes the ordering key, as every member converges on it. Nothing else of a copy
                // is kept: re-signed copies must not grow the state or cost a write (issue 31, D3).
                if let i = snapshots.firstIndex(where: { $0.contentHash == hash }),
                   Self.precedes(event.createdAt, event.id, snapshots[i].createdAt, snapshots[i].eventID) {
                    snapshots[i].createdAt = event.createdAt
                    snapshots[i].eventID = event.id.lowercased()
                    return Step(outcomes: [.duplicate], changed: true)
                }
                return Step(outcomes: [.duplicate])
            }
            guard sealed.count >= GroupEventCipher.minimumSealedByteCount else {
                return Step(outcomes: [.rejected(MLSError(.invalidEvent, "kind-445 content is \(sealed.count) bytes, under a nonce and a tag"))])
            }
            guard let message = open(sealed) else {
                if state.isRemoved { return Step(outcomes: [.rejected(MLSError(.notMember, "removed from the group"))]) }
                return Step(outcomes: [.buffered], buffer: true)
            }
            let header = try MarmotMessageHeader(message)
            if profile == .current, header.wireFormat == MarmotMessageHeader.privateMessage, header.contentType != .application {
                // MDK v0.9.14 joins with OpenMLS's pure-plaintext policy: handshakes are PublicMessages.
                throw MLSError(.profileMismatch, "a handshake message sent as PrivateMessage in a current-profile group")
            }
            let outcomes: [MarmotOutcome]
            if header.contentType == .commit {
                do {
                    outcomes = try receiveCommit(message, header: header, event: event, hash: hash, now: now)
                } catch let e as MLSError where e.code == .unknownProposal {
                    // Same-second events arrive in id order: the proposal may come next.
                    return Step(outcomes: [.buffered], buffer: true)
                }
            } else {
                let outcome = try receiveOther(message, header: header)
                // A refused message leaves no trace: the state is as before (issue 31, D2).
                if case .rejected = outcome { return Step(outcomes: [outcome]) }
                outcomes = [outcome]
            }
            recordSeen(event, contentHash: hash, epoch: header.epoch)
            return Step(outcomes: outcomes, changed: true)
        } catch let e as MLSError {
            return Step(outcomes: [.rejected(e)])
        } catch {
            return Step(outcomes: [.rejected(MLSError(.invalidValue, "\(error)"))])
        }
    }

    /// Opens sealed content with the current epoch's key (unless removed), then the retained
    /// epochs' keys, newest first.
    func open(_ sealed: [UInt8]) -> [UInt8]? {
        if !state.isRemoved, let opened = Self.open(sealed, in: state) { return opened }
        for s in snapshots.reversed() { if let opened = Self.open(sealed, in: s.state) { return opened } }
        return nil
    }

    /// Processes a non-commit message on a copy of the state, kept only when the message is
    /// accepted: a refused proposal is not cached, and one member's SelfRemove is cached once.
    mutating func receiveOther(_ message: [UInt8], header: MarmotMessageHeader) throws -> MarmotOutcome {
        var next = state
        switch try next.processMessage(message) {
        case let .application(sender, data):
            let decoded = try MarmotApplicationMessage.decode(data, senderIdentity: sender)
            state = next
            recordWitness(epoch: header.epoch, sender: sender)
            return .message(decoded, epoch: header.epoch)
        case let .proposal(sender, selfRemove):
            guard selfRemove else { return .rejected(MLSError(.invalidValue, "only SelfRemove proposals are expected")) }
            if profile == .current, groupData.isAdmin(sender) {
                // MDK v0.9.14 `app_components.rs:1352-1392` (`AdminCannotSelfRemove`).
                return .rejected(MLSError(.notAdmin, "an admin's SelfRemove: admins give up admin rights first"))
            }
            let pubkey = Hex.encode(sender)
            guard !leaveRequests.contains(pubkey) else {
                return .rejected(MLSError(.invalidProposal, "a second SelfRemove from the same member this epoch"))
            }
            state = next
            leaveRequests.append(pubkey)
            return .leaveRequest(pubkey: pubkey)
        case .commit:
            // Applied only to the copy, which is dropped: the state is as before.
            return .rejected(MLSError(.invalidValue, "a commit framed as another content type"))
        }
    }

    /// MIP-03 and `admin-policy-v1.md` ("Admin-Gated Actions"; MDK v0.9.14
    /// `app_components.rs:1417-1465`): an admin may commit anything; anyone else only a pure
    /// self-update or SelfRemoves.
    static func authorize(_ info: MarmotCommitInfo, admins: [[UInt8]]) throws {
        if admins.contains(info.committer) { return }
        let noChange = info.added.isEmpty && !info.extensionsChanged
        if noChange, info.removed.isEmpty, info.onlyOwnUpdate { return }
        if noChange, info.onlySelfRemoves { return }
        throw MLSError(.notAdmin, "commit by non-admin \(Hex.encode(info.committer)) is not a pure self-update or SelfRemove")
    }

    /// `app-components/group-lifecycle-v1.md`: a disbanded group takes no further Commit; the
    /// lifecycle component, once present, stays; and the one transition, `active → disbanded`,
    /// leaves the committer as the only admin and the only member, with nobody added (a member
    /// the Commit removed checks it from the Commit's removals, having no new tree).
    static func checkLifecycle(_ info: MarmotCommitInfo, from data: MarmotGroupData, to newData: MarmotGroupData, base: Engine, next: Engine) throws {
        if data.lifecycle == .disbanded { throw MLSError(.groupDisbanded, "the group is disbanded: it takes no further commit") }
        if data.lifecycle != nil, newData.lifecycle == nil { throw MLSError(.groupDisbanded, "a commit may not remove the lifecycle component") }
        guard newData.lifecycle == .disbanded else { return }
        guard newData.admins == [info.committer], info.added.isEmpty else {
            throw MLSError(.groupDisbanded, "a disband commit leaves exactly its committer as admin and adds nobody")
        }
        let onlyCommitterLeft = next.isRemoved ? Set(base.memberIdentities).subtracting(info.removed) == [info.committer]
                                               : next.memberIdentities == [info.committer]
        if !onlyCommitterLeft {
            throw MLSError(.groupDisbanded, "a disband commit removes every leaf but its committer's")
        }
    }

    /// Applies `message` to a copy of `base`, checks the Marmot rules, and returns the new state.
    static func apply(_ message: [UInt8], to base: Engine, data: MarmotGroupData) throws -> (Engine, MarmotGroupData, MarmotCommitInfo) {
        var next = base
        guard case let .commit(info) = try next.processMessage(message) else { throw MLSError(.invalidValue, "not a commit") }
        try authorize(info, admins: data.admins)
        let newData = try MarmotGroupData(extensions: next.groupContextExtensions)
        try checkLifecycle(info, from: data, to: newData, base: base, next: next)
        try checkInviteLinks(committer: info.committer, removed: info.removed, from: data, to: newData)
        guard !newData.admins.isEmpty else { throw MLSError(.notAdmin, "a commit may not leave the group without an admin") }
        if newData.profile == .current, !next.isRemoved {
            let members = Set(next.memberIdentities)
            guard newData.admins.allSatisfy(members.contains) else {
                throw MLSError(.invalidGroupData, "a commit may not leave an admin without a leaf")
            }
        }
        return (next, newData, info)
    }

    mutating func receiveCommit(_ message: [UInt8], header: MarmotMessageHeader, event: NostrEvent, hash: [UInt8], now: Int64) throws -> [MarmotOutcome] {
        // A disbanded group is terminal (group-lifecycle-v1.md; PROTOCOL §5.16): no Commit is
        // processed at all, for any epoch, whoever sent it, its disbander's own leaf included.
        if groupData.lifecycle == .disbanded { throw MLSError(.groupDisbanded, "the group is disbanded: it takes no further commit") }
        if !state.isRemoved, header.epoch == state.epoch {
            let (next, newData, info) = try Self.apply(message, to: state, data: groupData)
            // Linear advancement is a pass with one candidate (convergence.md, "Fork detection").
            let digest = SHA256.hash(message)
            lastConvergenceDecision = BranchSelector.select([BranchCandidate(id: "linear", forkEpoch: state.epoch, tipEpoch: next.epoch,
                                                                             tipPriority: Self.priority(of: info), tipCommitter: info.committer,
                                                                             tipDigest: digest, witnesses: [])],
                                                            passBaseEpoch: state.epoch)
            pushSnapshot(Snapshot(state: state, groupData: groupData, createdAt: event.createdAt, eventID: event.id.lowercased(),
                                  contentHash: hash, added: info.added, keyPackageEvents: [:], committer: info.committer,
                                  commitDigest: digest, priority: Self.priority(of: info)))
            state = next
            groupData = newData
            currentWitnesses = []
            leaveRequests = []
            if state.isRemoved || info.removed.contains(state.ownIdentity) { return [.removed] }
            return [.commitApplied(epoch: state.epoch, added: info.added.map(Hex.encode), removed: info.removed.map(Hex.encode))]
        }
        guard let i = snapshots.firstIndex(where: { $0.epoch == header.epoch }) else {
            if header.epoch > state.epoch, !state.isRemoved {
                throw MLSError(.invalidValue, "commit for future epoch \(header.epoch) opened under a known key")
            }
            throw MLSError(.staleCommit, "commit for epoch \(header.epoch), older than the retained epochs")
        }
        if profile == .current { return try converge(at: i, message: message, event: event, hash: hash, now: now) }
        let snap = snapshots[i]
        let (next, newData, info) = try Self.apply(message, to: snap.state, data: snap.groupData)
        let after = i + 1 < snapshots.count ? snapshots[i + 1].state : state
        let appliedRemoved = Set(snap.state.memberIdentities).subtracting(after.memberIdentities)
        guard Self.displaces(incoming: (event.createdAt, event.id, info), applied: snap, appliedRemoved: appliedRemoved) else {
            return [.superseded(epoch: header.epoch)]
        }
        // The abandoned branch: every commit applied from this epoch on.
        let members = Set(next.memberIdentities)
        var lost: [MarmotLostAdd] = []
        for s in snapshots[i...] {
            for id in s.added where !members.contains(id) && !lost.contains(where: { $0.pubkey == Hex.encode(id) }) {
                lost.append(MarmotLostAdd(pubkey: Hex.encode(id), keyPackageEvent: s.keyPackageEvents[Hex.encode(id)]))
            }
        }
        snapshots.removeSubrange(i...)
        pushSnapshot(Snapshot(state: snap.state, groupData: snap.groupData, createdAt: event.createdAt, eventID: event.id.lowercased(),
                              contentHash: hash, added: info.added, keyPackageEvents: [:], committer: info.committer,
                              commitDigest: SHA256.hash(message), priority: Self.priority(of: info)))
        state = next
        groupData = newData
        currentWitnesses = []
        leaveRequests = []
        var outcomes: [MarmotOutcome] = [.rolledBack(toEpoch: header.epoch, nowAt: state.epoch, lostAdds: lost)]
        if state.isRemoved || info.removed.contains(state.ownIdentity) { outcomes.append(.removed) }
        return outcomes
    }
}
