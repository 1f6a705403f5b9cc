/// The outcome of one convergence pass's selection: what was chosen and why, for the app and for
/// conformance traces (MDK's `ConvergenceDecision` audit event carries the same facts).
public struct ConvergenceDecision: Sendable, Hashable {
    /// The canonical epoch the pass started from.
    public let passBaseEpoch: UInt64
    /// Candidates the pass compared, eligible or not.
    public let candidateCount: Int
    /// The selected branch; `nil` when no candidate was eligible.
    public let selected: BranchCandidate?
    /// The selected branch's score.
    public let score: BranchScore?
    /// The first rule that separated the winner from the runner-up; `nil` with one candidate.
    public let decisiveRule: BranchSelectionRule?

    public var selectedTipEpoch: UInt64? { selected?.tipEpoch }
    public var witnessQuorumMet: Bool { score?.witnessQuorumMet ?? false }
    public var appWitnessScore: UInt64? { score?.appWitnessScore }
}
