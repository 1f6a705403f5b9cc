import InviteKitMLS
import InviteKitNostr
import InviteKitRelay
import InviteKitStore

/// The seam `InviteKitConformance` drives scenario clients through (PROTOCOL §5.13.1): the run
/// loop's steps, called one at a time instead of by ``run()``, so a scenario decides when events
/// arrive, when a relay answers and when a convergence pass's window has passed. Every state
/// change still goes through the node's own handlers, transactions and publish-before-apply
/// path; `package`, so apps never see it.
extension InviteKitNode {
    /// Starts the runtime's state without the loop or any connection: received Commits are held
    /// by convergence passes as under ``run()``. ``conformanceStopStepping()`` ends it.
    package func conformanceStartStepping() {
        if runtime == nil { runtime = NodeRuntimeState() }
    }

    /// Ends what ``conformanceStartStepping()`` started, saving the buffers a round would have,
    /// so ``shutdown()`` does not wait for a loop that never ran.
    package func conformanceStopStepping() {
        try? saveDirtyBuffers()
        runtime = nil
    }

    /// Where convergence passes read the time from (``convergenceClock``).
    package func conformanceSetConvergenceClock(_ clock: @escaping @Sendable () -> ContinuousClock.Instant) {
        convergenceClock = clock
    }

    /// Called with each group's engine state whenever the node keeps a new one (after the
    /// transaction that stored it), and after every group event it handled.
    package func conformanceObserveStates(_ observer: @escaping @Sendable (_ groupID: String, _ group: MarmotMLSGroup) -> Void) {
        stateObserver = observer
    }

    /// How many ``NodeEvent``s the node emitted so far: a subscriber that read this many has
    /// read everything, without waiting on the stream.
    package nonisolated var conformanceEventCount: UInt64 { hub.yieldedCount }

    /// One kind-445 event as the group feed delivers it: held by its group's pass or handled.
    package func conformanceReceive(groupEvent: NostrEvent) { receive(groupEvent: groupEvent) }

    /// One gift wrap as the gift-wrap feed delivers it.
    package func conformanceReceive(giftWrap: NostrEvent) { receive(giftWrap: giftWrap) }

    /// One round of the loop's work that needs no relay: deferred wraps, dirty buffers, the
    /// convergence passes whose window closed by ``convergenceClock``, then the Welcome holds.
    package func conformanceRound() throws(InviteKitError) {
        try InviteKitError.mapping {
            try retryDeferredWraps()
            try saveDirtyBuffers()
        }
        _ = runConvergencePasses()
        _ = try InviteKitError.mapping { try settleWelcomeHolds() }
    }

    /// Writes every due delivery to `connection` (the loop's `flush` with one relay for all).
    package func conformanceFlush(to connection: any NostrRelayConnection) async throws(InviteKitError) {
        _ = try await InviteKitError.mapping { try await flush { _ in connection } }
    }

    /// The Commit whose `OK` released the queued event `eventID` (a Welcome, through its gate
    /// chain of tree chunks), or `nil`: a Welcome held for its Commit's settlement (PROTOCOL §5.13,
    /// "Welcome hold") leaves in a later flush than its Commit, and the runner labels it by it.
    package func conformanceCommit(releasing eventID: String) throws(InviteKitError) -> String? {
        try InviteKitError.mapping {
            try store.read { tx in
                var id = eventID
                for _ in 0..<64 {
                    guard let entry = try tx.outbound.entry(eventID: id) else { return nil }
                    if entry.purpose == .commit { return entry.eventID }
                    guard let gate = entry.gateEventID else { return nil }
                    id = gate
                }
                return nil
            }
        }
    }

    /// The ids of the own Commits waiting for a relay's `OK`.
    package var conformancePendingCommits: [(eventID: String, groupID: String)] {
        pendingCommits.values.map { ($0.event.id, $0.groupID) }
    }

    /// A group's engine state (either id), as the node holds it.
    package func conformanceGroup(_ groupID: String) throws(InviteKitError) -> MarmotMLSGroup {
        try InviteKitError.mapping { try currentGroup(try groupRow(groupID).id) }
    }

    /// The group (private id) whose Nostr group id is `nostrGroupID`, if this node has it.
    package func conformanceGroupID(nostrGroupID: [UInt8]) -> String? {
        registry.first { $0.value.group.nostrGroupID == nostrGroupID }?.key
    }

    /// What the group still has to do: buffered events (not the history from before this node
    /// joined), received Commits a pass holds and own Commits waiting for an `OK`.
    package func conformancePendingWork(_ groupID: String) throws(InviteKitError) -> Int {
        let id = try InviteKitError.mapping { () throws -> String in
            let id = try groupRow(groupID).id
            try loadBuffer(groupID: id)
            return id
        }
        let entry = registry[id]
        let buffered = (entry?.group.buffer.events ?? []).filter { !(entry?.preJoinBuffered.contains($0.id) ?? false) }.count
        return buffered + (runtime?.passes[id]?.retained.count ?? 0) + pendingCommits.values.filter { $0.groupID == id }.count
    }

    /// A fresh KeyPackage of this node (current profile), its private part stored, not published:
    /// the scenario hands the event to the inviter itself.
    package func conformanceKeyPackage() throws(InviteKitError) -> NostrEvent {
        try InviteKitError.mapping { try makeKeyPackage(relays: try defaultRelays(), now: currentTime()) }
    }

    /// Adds the authors of `keyPackages` in one Commit, with `groupData` when given (an admin's
    /// add; the Welcomes go out after the Commit's `OK`, as for every add by this node). The
    /// node's own add takes one KeyPackage it fetched; a scenario's invite names several.
    package func conformanceAdd(keyPackages: [NostrEvent], groupData: MarmotGroupData?, to groupID: String) throws(InviteKitError) -> String {
        let id = try InviteKitError.mapping { () throws -> String in
            let row = try groupRow(groupID)
            try requireNoCommitInFlight(row.id)
            guard let host = inviteLinkHost(row.id), let first = keyPackages.first else {
                throw InviteKitError(.notPermitted, underlyingCode: "not_admin")
            }
            let now = currentTime()
            let validated = try keyPackages.map { try KeyPackageValidator.validate($0, now: now) }
            let commit = try host.group.commit(adding: validated, groupData: groupData, budget: configuration.eventBudget, now: now, rng: randomSource)
            let pending = PendingJoin(conversationID: row.id, joiner: try first.authorKey(), keyPackageEventID: first.id, inviteTag: nil, commit: commit)
            return try submit(.join(pending), relays: row.relays)
        }
        wake()
        return id
    }

    /// A group-data change through the node's one path for them (admins only; queued behind
    /// nothing: `commit_pending` while the group is busy).
    package func conformanceChangeGroupData(_ groupID: String,
                                            _ edit: @escaping @Sendable (inout MarmotGroupData) throws -> Void) async throws(InviteKitError) -> String {
        try InviteKitError.mapping { try requireNoCommitInFlight(try groupRow(groupID).id) }
        return try await changeGroupData(groupID) { data, _ in try edit(&data) }
    }
}
