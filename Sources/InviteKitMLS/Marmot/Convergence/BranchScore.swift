/// What the selector compares of a ``BranchCandidate`` (`convergence.md`, "App-payload
/// witnesses" and "Branch selection").
public struct BranchScore: Sendable, Hashable {
    public let effectiveCommitDepth: UInt64
    public let witnessQuorumMet: Bool
    public let appWitnessScore: UInt64
    public let tipPriority: CommitPriority
    public let tipCommitter: [UInt8]
    public let tipDigest: [UInt8]

    /// Scores `candidate`: witnesses count once per distinct sender per branch epoch, only inside
    /// the branch epochs and the app-payload window measured from the candidate's own tip; each
    /// epoch counts at most `witnessQuorumSendersPerEpoch`; quorum adds the bounded depth boost.
    public init(_ candidate: BranchCandidate, policy: ConvergencePolicy) {
        var senders: [UInt64: Set<[UInt8]>] = [:]
        for w in candidate.witnesses where w.epoch > candidate.forkEpoch && w.epoch <= candidate.tipEpoch
            && candidate.tipEpoch - w.epoch <= policy.appPayloadPastEpochLimit {
            senders[w.epoch, default: []].insert(w.sender)
        }
        let quorumSenders = policy.witnessQuorumSendersPerEpoch
        appWitnessScore = senders.values.reduce(0) { $0 + UInt64(min($1.count, quorumSenders)) }
        let quorumEpochs = senders.values.filter { $0.count >= quorumSenders }.count
        witnessQuorumMet = quorumSenders > 0 && policy.witnessQuorumEpochs > 0 && quorumEpochs >= policy.witnessQuorumEpochs
        effectiveCommitDepth = candidate.rawCommitDepth + (witnessQuorumMet ? policy.maxWitnessOverrideDepth : 0)
        tipPriority = candidate.tipPriority
        tipCommitter = candidate.tipCommitter
        tipDigest = candidate.tipDigest
    }

    /// The six rules in the spec's order, each as how `self` compares with `other` for the rule
    /// (`.orderedAscending`: `self` is better). Depth, quorum and score prefer more; priority,
    /// committer and digest prefer less.
    func rules(against other: BranchScore) -> [(BranchSelectionRule, Comparison)] {
        func more<T: Comparable>(_ a: T, _ b: T) -> Comparison { a == b ? .same : (a > b ? .better : .worse) }
        func less<T: Comparable>(_ a: T, _ b: T) -> Comparison { a == b ? .same : (a < b ? .better : .worse) }
        func lower(_ a: [UInt8], _ b: [UInt8]) -> Comparison { a == b ? .same : (a.lexicographicallyPrecedes(b) ? .better : .worse) }
        return [
            (.effectiveCommitDepth, more(effectiveCommitDepth, other.effectiveCommitDepth)),
            (.witnessQuorumMet, more(witnessQuorumMet ? 1 : 0, other.witnessQuorumMet ? 1 : 0)),
            (.appWitnessScore, more(appWitnessScore, other.appWitnessScore)),
            (.tipPriority, less(tipPriority, other.tipPriority)),
            (.tipCommitter, lower(tipCommitter, other.tipCommitter)),
            (.tipDigest, lower(tipDigest, other.tipDigest)),
        ]
    }

    /// `true` when `self` wins against `other` (the first rule that differs decides).
    func beats(_ other: BranchScore) -> Bool {
        rules(against: other).first { $0.1 != .same }?.1 == .better
    }

    enum Comparison: Sendable { case better, same, worse }
}
