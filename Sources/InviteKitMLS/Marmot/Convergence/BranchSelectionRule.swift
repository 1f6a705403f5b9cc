/// The branch-selection rules, in the order they are applied (`convergence.md`, "Branch
/// selection"). Raw values are the rule names MDK's decision traces use
/// (`cgka-engine/src/convergence.rs` at v0.9.14, `build_rule_trace`).
public enum BranchSelectionRule: String, Sendable, Hashable, CaseIterable {
    case effectiveCommitDepth = "effective_commit_depth"
    case witnessQuorumMet = "witness_quorum_met"
    case appWitnessScore = "app_witness_score"
    case tipPriority = "tip_priority"
    case tipCommitter = "tip_committer"
    case tipDigest = "tip_digest"
}
