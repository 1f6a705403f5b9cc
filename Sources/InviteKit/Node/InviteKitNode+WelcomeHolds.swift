import InviteKitMLS
import InviteKitStore

/// Welcomes of an own Add wait for the Add to settle (PROTOCOL §5.13, "Welcome hold"). The Add is
/// applied at its `OK`, as every own Commit, but a competing Commit for the same epoch (another
/// admin approving the same request, say) may be held in a pass or still on its way. So its
/// Welcomes stay in `outbound` (`held_for_commit`) until one settlement-quiescence window has
/// passed since the `OK` and no pass of the group holds a Commit; then the selected branch decides:
/// released when it holds the Add, deleted unsent when it does not (the Commit's row becomes
/// `rolled_back`, so an invite-link approval waiting on it is lost and its request open again).
extension InviteKitNode {
    /// Starts holding the Welcomes of `commitEventID`, built on `epoch`, once the transaction
    /// recording its `OK` committed.
    func holdWelcomes(of commitEventID: String, groupID: String, builtOn epoch: UInt64) {
        welcomeHolds[commitEventID] = NodeWelcomeHold(groupID: groupID, epoch: epoch, start: convergenceClock(),
                                                      timing: configuration.convergenceTiming)
    }

    /// The Commits whose Welcomes a restarted node finds held. Each gets a fresh window: the pass
    /// that might have held a competing Commit was in the gone process's memory, and the relays'
    /// catch-up brings that Commit back.
    static func storedWelcomeHolds(in tx: StoreTransaction) throws -> [PendingCommitRecord] {
        try tx.outbound.heldCommits().compactMap { try tx.pendingCommits.get(commitEventID: $0) }
    }

    /// Deletes, inside the transaction that saves a rollback to `fork`, the held Welcomes of the
    /// group's own Adds built on `fork` or later (the branch they were on is gone), and records
    /// those Adds as replaced. Done at once, not left to settlement, so that a hold restored long
    /// after (past the rollback horizon, where the selected branch no longer tells) is never one
    /// of a replaced Add. The holds themselves are cleared by the next settlement.
    func dropWelcomeHolds(groupID: String, from fork: UInt64, in tx: StoreTransaction, now: Int64) throws {
        for (id, hold) in welcomeHolds where hold.groupID == groupID && hold.epoch >= fork {
            try dropWelcomes(of: id, in: tx, now: now)
        }
    }

    /// The held Welcomes of `commitEventID` deleted unsent; its row, if still confirmed, replaced.
    private func dropWelcomes(of commitEventID: String, in tx: StoreTransaction, now: Int64) throws {
        if try tx.outbound.dropHeld(forCommit: commitEventID) > 0,
           try tx.pendingCommits.get(commitEventID: commitEventID)?.status == .confirmed {
            try tx.pendingCommits.replace(commitEventID: commitEventID, now: now)
        }
    }

    /// Settles every hold whose window has passed and whose group no pass is collecting for or
    /// holding Commits for (a pass's resolution may still replace the branch). Returns the
    /// earliest window still open, for the run loop's sleep. Without a run loop there are no
    /// passes: a received Commit is resolved when the caller hands it over, and a hold is settled
    /// at the next flush without a window.
    func settleWelcomeHolds() throws -> ContinuousClock.Instant? {
        guard !welcomeHolds.isEmpty else { return nil }
        let now = convergenceClock()
        let windowed = runtime != nil
        var next: ContinuousClock.Instant?
        var settled: [(commitEventID: String, selected: Bool)] = []
        for (id, hold) in welcomeHolds.sorted(by: { $0.key < $1.key }) {
            guard !windowed || hold.notBefore <= now else {
                next = min(next ?? hold.notBefore, hold.notBefore)
                continue
            }
            if runtime?.passes[hold.groupID] != nil { continue }
            let selected = registry[hold.groupID]?.group.selectedBranchHolds(commitEventID: id, builtOn: hold.epoch) ?? false
            settled.append((id, selected))
        }
        guard !settled.isEmpty else { return next }
        let at = currentTime()
        try store.write { tx in
            for s in settled {
                if s.selected {
                    try tx.outbound.releaseHeld(forCommit: s.commitEventID)
                } else {
                    try dropWelcomes(of: s.commitEventID, in: tx, now: at)
                }
            }
        }
        for s in settled { welcomeHolds[s.commitEventID] = nil }
        wake()
        return next
    }
}
