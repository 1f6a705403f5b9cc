/// Deterministic branch choice over a frozen set of candidates (`convergence.md`, "Eligibility"
/// and "Branch selection"). A pure function of the candidate *set* and the pass's base epoch:
/// arrival order, relay timestamps and event ids never enter it.
public enum BranchSelector {
    /// Picks the canonical branch among `candidates`, or `nil` when none is eligible
    /// (`passBaseEpoch - forkEpoch <= maxRewindCommits`).
    public static func select(_ candidates: [BranchCandidate], passBaseEpoch: UInt64, policy: ConvergencePolicy = .v1) -> ConvergenceDecision {
        let eligible = candidates.filter { passBaseEpoch >= $0.forkEpoch && passBaseEpoch - $0.forkEpoch <= policy.maxRewindCommits }
        let scored = eligible.map { ($0, BranchScore($0, policy: policy)) }
        guard var best = scored.first else {
            return ConvergenceDecision(passBaseEpoch: passBaseEpoch, candidateCount: candidates.count, selected: nil, score: nil,
                                       decisiveRule: nil)
        }
        for entry in scored.dropFirst() where entry.1.beats(best.1) { best = entry }
        // The decisive rule is the first that separates the winner from the best of the rest
        // (MDK reports the same, against its runner-up).
        var runnerUp: (BranchCandidate, BranchScore)?
        for entry in scored where entry.0 != best.0 {
            if let r = runnerUp, !entry.1.beats(r.1) { continue }
            runnerUp = entry
        }
        let rule = runnerUp.flatMap { r in best.1.rules(against: r.1).first { $0.1 != .same }?.0 }
        return ConvergenceDecision(passBaseEpoch: passBaseEpoch, candidateCount: candidates.count, selected: best.0, score: best.1,
                                   decisiveRule: rule)
    }
}
