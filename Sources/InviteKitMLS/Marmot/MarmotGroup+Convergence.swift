import InviteKitCrypto
import InviteKitNostr

/// Convergence v1 for current-profile groups (`protocol-core/convergence.md`; PROTOCOL §5.13):
/// when a valid commit diverges from the canonical path, the retained canonical suffix and the
/// divergent branch are scored by ``BranchSelector`` and the winner becomes canonical. Nothing
/// a sender chooses about the transport (relay time, event id, arrival order) decides.
extension MarmotGroup {
    /// `privileged` when the Marmot authorization rule needed an admin for this commit: anything
    /// but a pure self-update or a SelfRemove-only commit (`admin-policy-v1.md`).
    static func priority(of info: MarmotCommitInfo) -> CommitPriority {
        let noChange = info.added.isEmpty && !info.extensionsChanged
        if noChange, info.removed.isEmpty, info.onlyOwnUpdate { return .ordinary }
        if noChange, info.onlySelfRemoves { return .ordinary }
        return .privileged
    }

    /// Remembers that `sender` (an account identity) wrote a valid application message at
    /// `epoch` of the canonical path. Only as many senders per epoch as the witness score can
    /// count are kept (``ConvergencePolicy/witnessQuorumSendersPerEpoch``): the record is bounded
    /// by the retained epochs, whatever members send.
    mutating func recordWitness(epoch: UInt64, sender: [UInt8]) {
        let limit = ConvergencePolicy.v1.witnessQuorumSendersPerEpoch
        func add(_ list: inout [[UInt8]]) {
            if list.count < limit, !list.contains(sender) { list.append(sender) }
        }
        if epoch == state.epoch {
            add(&currentWitnesses)
        } else if let i = snapshots.firstIndex(where: { $0.epoch == epoch }) {
            add(&snapshots[i].witnesses)
        }
    }

    /// The canonical branch from `snapshots[i]`'s epoch to the current tip, as a candidate. Its
    /// tip commit is the last applied one, whose facts the newest snapshot holds.
    func canonicalCandidate(from i: Int) -> BranchCandidate {
        var witnesses: [BranchCandidate.Witness] = []
        for s in snapshots[(i + 1)...] { witnesses += s.witnesses.map { .init(epoch: s.epoch, sender: $0) } }
        witnesses += currentWitnesses.map { .init(epoch: state.epoch, sender: $0) }
        let tip = snapshots[snapshots.count - 1]
        return BranchCandidate(id: "canonical", forkEpoch: snapshots[i].epoch, tipEpoch: state.epoch, tipPriority: tip.priority,
                               tipCommitter: tip.committer, tipDigest: tip.commitDigest, witnesses: witnesses)
    }

    /// One commit of a divergent branch, replayed from its parent state.
    struct BranchStep {
        let parent: Engine
        let parentData: MarmotGroupData
        let next: Engine
        let nextData: MarmotGroupData
        let info: MarmotCommitInfo
        let digest: [UInt8]
        let event: NostrEvent
        let contentHash: [UInt8]
    }

    /// Buffered events parsed once for a fork: what a divergent branch's states may open.
    struct SealedEvent {
        let event: NostrEvent
        let sealed: [UInt8]
    }

    func bufferedSealedEvents(now: Int64) -> [SealedEvent] {
        buffer.events.compactMap { e in
            guard let (groupID, sealed) = try? MarmotGroupEvent.envelope(e, profile: profile, now: now), groupID == nostrGroupID else { return nil }
            return SealedEvent(event: e, sealed: sealed)
        }
    }

    static func open(_ sealed: [UInt8], in s: Engine) -> [UInt8]? {
        try? GroupEventCipher.open(bytes: sealed, key: groupEventKey(of: s))
    }

    /// Extends a divergent branch with buffered commits that validate on its tip (deferred
    /// children whose parent just arrived), at most to the rewind horizon.
    func extend(_ first: BranchStep, with buffered: [SealedEvent]) -> [BranchStep] {
        var steps = [first]
        var used: Set<String> = [first.event.id]
        while UInt64(steps.count) < ConvergencePolicy.v1.maxRewindCommits {
            let tip = steps[steps.count - 1]
            var advanced = false
            for b in buffered where !used.contains(b.event.id) {
                guard let message = Self.open(b.sealed, in: tip.next), let header = try? MarmotMessageHeader(message),
                      header.contentType == .commit, header.epoch == tip.next.epoch,
                      let (next, data, info) = try? Self.apply(message, to: tip.next, data: tip.nextData) else { continue }
                steps.append(BranchStep(parent: tip.next, parentData: tip.nextData, next: next, nextData: data, info: info,
                                        digest: SHA256.hash(message), event: b.event, contentHash: SHA256.hash(Array(b.event.content.utf8))))
                used.insert(b.event.id)
                advanced = true
                break
            }
            if !advanced { break }
        }
        return steps
    }

    /// Application messages waiting in the buffer that decrypt and pass the payload checks on a
    /// divergent branch's states: its witnesses. Trial decryption runs on copies.
    static func witnesses(of steps: [BranchStep], in buffered: [SealedEvent]) -> [BranchCandidate.Witness] {
        witnesses(onStates: steps.map(\.next), in: buffered)
    }

    /// ``witnesses(of:in:)`` for the states a branch reaches, its own commit's included.
    static func witnesses(onStates states: [Engine], in buffered: [SealedEvent]) -> [BranchCandidate.Witness] {
        var found: [BranchCandidate.Witness] = []
        for state in states where !state.isRemoved {
            for b in buffered {
                guard let message = open(b.sealed, in: state), let header = try? MarmotMessageHeader(message),
                      header.contentType == .application, header.epoch == state.epoch else { continue }
                var copy = state
                guard case let .application(sender, data)? = try? copy.processMessage(message),
                      (try? MarmotApplicationMessage.decode(data, senderIdentity: sender)) != nil else { continue }
                found.append(.init(epoch: state.epoch, sender: sender))
            }
        }
        return found
    }

    /// A valid commit `message` for the retained epoch of `snapshots[i]`, in a current-profile
    /// group: the divergent branch it starts (with any buffered children) against the canonical
    /// suffix, decided by ``BranchSelector``. The losing commit is reported `superseded`; a
    /// winning one replaces the canonical suffix (`rolledBack`).
    mutating func converge(at i: Int, message: [UInt8], event: NostrEvent, hash: [UInt8], now: Int64) throws -> [MarmotOutcome] {
        let snap = snapshots[i]
        let (next, newData, info) = try Self.apply(message, to: snap.state, data: snap.groupData)
        let buffered = bufferedSealedEvents(now: now)
        let steps = extend(BranchStep(parent: snap.state, parentData: snap.groupData, next: next, nextData: newData, info: info,
                                      digest: SHA256.hash(message), event: event, contentHash: hash), with: buffered)
        let tip = steps[steps.count - 1]
        let divergent = BranchCandidate(id: "divergent", forkEpoch: snap.epoch, tipEpoch: tip.next.epoch, tipPriority: Self.priority(of: tip.info),
                                        tipCommitter: tip.info.committer, tipDigest: tip.digest, witnesses: Self.witnesses(of: steps, in: buffered))
        let decision = BranchSelector.select([canonicalCandidate(from: i), divergent], passBaseEpoch: state.epoch)
        lastConvergenceDecision = decision
        losingBranches.removeAll { $0.event.id == event.id }
        guard decision.selected?.id == divergent.id else {
            // Losing once is not losing for good: witnesses may still arrive for this branch.
            losingBranches.append(LosingBranch(event: event, message: message, contentHash: hash, forkEpoch: snap.epoch,
                                               tipKey: Self.groupEventKey(of: tip.next)))
            if losingBranches.count > MarmotProfile.losingBranchLimit { losingBranches.removeFirst() }
            return [.superseded(epoch: snap.epoch)]
        }
        losingBranches.removeAll()

        // The abandoned branch's adds that the new one lacks: their Welcomes lead nowhere. The
        // inviter regenerates those invites (the spec's regenerated queued intent).
        let members = Set(tip.next.memberIdentities)
        var lost: [MarmotLostAdd] = []
        for s in snapshots[i...] {
            for id in s.added where !members.contains(id) && !lost.contains(where: { $0.pubkey == Hex.encode(id) }) {
                lost.append(MarmotLostAdd(pubkey: Hex.encode(id), keyPackageEvent: s.keyPackageEvents[Hex.encode(id)]))
            }
        }
        snapshots.removeSubrange(i...)
        for step in steps {
            pushSnapshot(Snapshot(state: step.parent, groupData: step.parentData, createdAt: step.event.createdAt,
                                  eventID: step.event.id.lowercased(), contentHash: step.contentHash, added: step.info.added,
                                  keyPackageEvents: [:], committer: step.info.committer, commitDigest: step.digest,
                                  priority: Self.priority(of: step.info)))
        }
        state = tip.next
        for step in steps { recordSeen(step.event, contentHash: step.contentHash, epoch: step.parent.epoch) }
        groupData = tip.nextData
        currentWitnesses = []
        leaveRequests = []
        var outcomes: [MarmotOutcome] = [.rolledBack(toEpoch: snap.epoch, nowAt: state.epoch, lostAdds: lost)]
        if state.isRemoved || steps.contains(where: { $0.info.removed.contains(state.ownIdentity) }) { outcomes.append(.removed) }
        return outcomes
    }

    /// An own commit the relay acknowledged after another commit for its epoch was applied: the
    /// same choice as for a received one (its branch against the canonical suffix from its
    /// epoch). When it wins, the snapshots from its epoch are replaced by it (members that
    /// receive both decide alike); when it loses it is `stale_commit`, and the caller rolls it
    /// back, as before.
    ///
    /// The own candidate is scored as a received one is: buffered messages that open under its
    /// tip are its witnesses, and when it loses it is kept (``losingOwnCommit``) so that a later
    /// witness can still select it. Returns the abandoned branch's lost adds.
    @discardableResult
    mutating func convergeOwn(_ pending: MarmotPendingCommit<Engine>, at i: Int, now: Int64 = UnixTime.now()) throws -> [MarmotLostAdd] {
        let snap = snapshots[i]
        var next = snap.state
        try next.merge(pending.pending)
        let nextData = try MarmotGroupData(extensions: next.groupContextExtensions)
        let sealed = try MarmotGroupEvent.envelope(pending.event, profile: profile, now: pending.event.createdAt).sealed
        guard let message = Self.open(sealed, in: snap.state) else { throw MLSError(.invalidEvent, "the pending commit does not open under its epoch's key") }
        let priority = pending.priority ?? Self.storedCommitPriority(parent: snap.state, next: next)
        let own = BranchCandidate(id: "own", forkEpoch: snap.epoch, tipEpoch: next.epoch, tipPriority: priority, tipCommitter: state.ownIdentity,
                                  tipDigest: SHA256.hash(message), witnesses: Self.witnesses(onStates: [next], in: bufferedSealedEvents(now: now)))
        let decision = BranchSelector.select([canonicalCandidate(from: i), own], passBaseEpoch: state.epoch)
        lastConvergenceDecision = decision
        guard decision.selected?.id == own.id else {
            losingOwnCommit = (pending, snap.epoch, Self.groupEventKey(of: next))
            throw MLSError(.staleCommit, "another commit for epoch \(snap.epoch) was selected before this one was confirmed")
        }
        losingOwnCommit = nil
        let members = Set(next.memberIdentities)
        var lost: [MarmotLostAdd] = []
        for s in snapshots[i...] {
            for id in s.added where !members.contains(id) && !lost.contains(where: { $0.pubkey == Hex.encode(id) }) {
                lost.append(MarmotLostAdd(pubkey: Hex.encode(id), keyPackageEvent: s.keyPackageEvents[Hex.encode(id)]))
            }
        }
        var kpEvents: [String: NostrEvent] = [:]
        for e in pending.keyPackageEvents { kpEvents[e.pubkey] = e }
        snapshots.removeSubrange(i...)
        pushSnapshot(Snapshot(state: snap.state, groupData: snap.groupData, createdAt: pending.event.createdAt, eventID: pending.event.id.lowercased(),
                              contentHash: SHA256.hash(Array(pending.event.content.utf8)),
                              added: pending.keyPackageEvents.compactMap { Hex.decode($0.pubkey, count: 32) }, keyPackageEvents: kpEvents,
                              committer: state.ownIdentity, commitDigest: own.tipDigest, priority: priority))
        state = next
        groupData = nextData
        currentWitnesses = []
        leaveRequests = []
        _ = sent(pending.event, epoch: snap.epoch)
        return lost
    }

    /// A buffered event that opens under a losing branch's key may be a witness that changes its
    /// fate: the fork is decided again, with everything buffered by now. Branches outside the
    /// rewind horizon are dropped first. Costs one AEAD open per kept branch.
    mutating func reconsiderLosingBranches(after event: NostrEvent, now: Int64) -> [MarmotOutcome] {
        losingBranches.removeAll { state.epoch > $0.forkEpoch && state.epoch - $0.forkEpoch > ConvergencePolicy.v1.maxRewindCommits }
        guard !losingBranches.isEmpty || losingOwnCommit != nil,
              let (_, sealed) = try? MarmotGroupEvent.envelope(event, profile: profile, now: now) else { return [] }
        for loser in losingBranches {
            guard (try? GroupEventCipher.open(bytes: sealed, key: loser.tipKey)) != nil,
                  let i = snapshots.firstIndex(where: { $0.epoch == loser.forkEpoch }) else { continue }
            guard let outcomes = try? converge(at: i, message: loser.message, event: loser.event, hash: loser.contentHash, now: now) else { continue }
            if case .rolledBack? = outcomes.first { return outcomes }
        }
        if let own = losingOwnCommit {
            if state.epoch > own.forkEpoch, state.epoch - own.forkEpoch > ConvergencePolicy.v1.maxRewindCommits {
                losingOwnCommit = nil
            } else if (try? GroupEventCipher.open(bytes: sealed, key: own.tipKey)) != nil,
                      let i = snapshots.firstIndex(where: { $0.epoch == own.forkEpoch }),
                      let lost = try? convergeOwn(own.pending, at: i, now: now) {
                return [.rolledBack(toEpoch: own.forkEpoch, nowAt: state.epoch, lostAdds: lost)]
            }
        }
        return []
    }
}

/// A commit that lost a fork, kept (in memory) so that a later decision can pick it.
struct LosingBranch: Sendable {
    let event: NostrEvent
    let message: [UInt8]
    let contentHash: [UInt8]
    let forkEpoch: UInt64
    /// The kind-445 key of the branch's tip: what tells a witness for it.
    let tipKey: SecureBytes
}
