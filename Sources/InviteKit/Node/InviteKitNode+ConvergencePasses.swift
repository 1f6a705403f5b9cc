import InviteKitMLS
import InviteKitNostr

/// Where a current-profile group stands in convergence (`protocol-core/convergence.md`, the
/// lifecycle states; PROTOCOL §5.13, "Passes").
public struct NodeConvergenceState: Sendable, Hashable {
    /// The spec's group lifecycle. `Merging` (an acknowledged own Commit being applied) is never
    /// seen from outside: InviteKit applies it inside the transaction that records the relay's
    /// `OK`, so a crash leaves it either pending or applied.
    public enum Lifecycle: String, Sendable, Hashable {
        /// Canonical state is current; a linear pass may be collecting.
        case stable
        /// An own Commit waits for a relay's `OK`; received Commits wait for it to be settled.
        case pendingPublish = "pending_publish"
        /// The open pass holds a Commit for an epoch behind the tip: a fork is being resolved.
        case recovering
    }

    public let lifecycle: Lifecycle
    /// Whether a pass is collecting received Commits.
    public let collecting: Bool
    /// Received Commits held, by the open pass or for the next one.
    public let heldCommits: Int
}

extension InviteKitNode {
    /// Where `groupID` (either id) stands in convergence: ``NodeConvergenceState``.
    /// ([convergence.md](https://github.com/marmot-protocol/marmot), "Convergence policy")
    public func convergenceState(of groupID: String) throws(InviteKitError) -> NodeConvergenceState {
        let id = try InviteKitError.mapping { try groupRow(groupID).id }
        let pass = runtime?.passes[id]
        let pending = pendingCommits.values.contains { $0.groupID == id }
        let lifecycle: NodeConvergenceState.Lifecycle = pending ? .pendingPublish : (pass?.recovering == true ? .recovering : .stable)
        return NodeConvergenceState(lifecycle: lifecycle, collecting: pass?.isOpen ?? false, heldCommits: pass?.retained.count ?? 0)
    }

    /// Groups whose pass is collecting: no own Commit is built for them until it is resolved
    /// (the spec's outbound hold), as while one waits for its `OK`.
    var collectingGroups: Set<String> {
        Set((runtime?.passes ?? [:]).filter { $0.value.isOpen }.keys)
    }

    /// Holds `event` in its group's pass when it is a received current-profile Commit the run loop
    /// should resolve with the pass's batch; `false` when it is to be handled now. While an own
    /// Commit of the group waits for its `OK` the Commit is held but no pass opens
    /// (`PendingPublish`). A full batch is resolved at once.
    func holdForConvergence(_ event: NostrEvent) -> Bool {
        guard runtime != nil, let groupID = groupID(taggedIn: event), let entry = registry[groupID], !entry.removed,
              let input = entry.group.convergencePassInput(event) else { return false }
        var pass = runtime?.passes[groupID] ?? ConvergencePass(timing: configuration.convergenceTiming)
        let pending = pendingCommits.values.contains { $0.groupID == groupID }
        let frozen = pass.retain(event, divergent: input.divergent, canOpen: !pending, at: convergenceClock())
        runtime?.passes[groupID] = pass
        if let frozen { resolve(frozen, groupID: groupID) }
        wake()
        return true
    }

    /// One run-loop step: opens the passes whose group's own Commit was settled, and resolves each
    /// pass whose window closed. Returns the earliest deadline still open.
    func runConvergencePasses() -> ContinuousClock.Instant? {
        guard let passes = runtime?.passes else { return nil }
        let now = convergenceClock()
        let pendingGroups = Set(pendingCommits.values.map(\.groupID))
        var next: ContinuousClock.Instant?
        for (groupID, var pass) in passes {
            guard registry[groupID]?.removed == false else {
                runtime?.passes[groupID] = nil
                continue
            }
            if !pendingGroups.contains(groupID) { pass.openIfWaiting(at: now) }
            let frozen = pass.closeIfDue(at: now)
            runtime?.passes[groupID] = pass.retained.isEmpty && !pass.isOpen ? nil : pass
            if let frozen { resolve(frozen, groupID: groupID) }
            if let d = runtime?.passes[groupID]?.deadline { next = min(next ?? d, d) }
        }
        return next
    }

    /// Resolves a frozen batch through the same path as any group event, so selection is
    /// ``BranchSelector``'s with the buffered children and witnesses in hand; the selected Commit
    /// goes first (``MarmotGroup/resolutionOrder(of:now:budget:)``), so the losers are superseded
    /// without having been shown.
    private func resolve(_ batch: [NostrEvent], groupID: String) {
        let ordered = registry[groupID]?.group.resolutionOrder(of: batch, now: currentTime(), budget: configuration.eventBudget) ?? batch
        for event in ordered { handleReceived(groupEvent: event) }
        let epoch = registry[groupID]?.group.epoch ?? 0
        emit(.convergencePassResolved(groupID: groupID, commits: batch.count, epoch: epoch))
    }
}
