import Foundation
import InviteKitCrypto
import InviteKitMLS

/// Runs the spec's branch-selector cases (`formal/tamarin/policy_cases.json` of MDK v0.9.14):
/// each names a policy, a base epoch and branches, and the branch that must win and the rule
/// that decides it. Digests are given as a rank byte (`"00"`, `"ff"`) repeated over 32 bytes and
/// committers as labels compared bytewise, as MDK's `policy_cases.rs` reads them.
package enum PolicyCaseRunner {
    /// MDK's reason names for the rule that separates winner and loser.
    static let reasons: [BranchSelectionRule: String] = [
        .effectiveCommitDepth: "effective_depth", .witnessQuorumMet: "quorum_tie", .appWitnessScore: "witness_score_tie",
        .tipPriority: "priority_tie", .tipCommitter: "committer_tie", .tipDigest: "digest_tie",
    ]

    package static func run(json: [UInt8]) throws -> [ConformanceResult] {
        guard let cases = try? JSONSerialization.jsonObject(with: Data(json)) as? [[String: Any]], !cases.isEmpty else {
            throw ConformanceError(.malformedScenario, "policy cases: not a non-empty JSON array")
        }
        return cases.map(runCase)
    }

    static func runCase(_ c: [String: Any]) -> ConformanceResult {
        var r = ConformanceResult(scenario: "policy case \(c["name"] as? String ?? "?")")
        r.checked = 1
        guard let p = c["policy"] as? [String: Any], let base = c["current_tip_epoch"] as? Int, let expected = c["expected"] as? [String: Any],
              let branches = c["branches"] as? [[String: Any]] else {
            r.failures.append("malformed case")
            return r
        }
        let policy = ConvergencePolicy(maxRewindCommits: UInt64(p["max_rewind_commits"] as? Int ?? 0),
                                       appPayloadPastEpochLimit: ConvergencePolicy.v1.appPayloadPastEpochLimit,
                                       settlementQuiescenceMilliseconds: ConvergencePolicy.v1.settlementQuiescenceMilliseconds,
                                       maxConvergencePassMilliseconds: ConvergencePolicy.v1.maxConvergencePassMilliseconds,
                                       witnessQuorumSendersPerEpoch: p["witness_quorum_senders_per_epoch"] as? Int ?? 0,
                                       witnessQuorumEpochs: p["witness_quorum_epochs"] as? Int ?? 0,
                                       maxWitnessOverrideDepth: UInt64(p["max_witness_override_depth"] as? Int ?? 0))
        let candidates = branches.map { b -> BranchCandidate in
            let id = b["id"] as? String ?? ""
            let rank = Hex.decode(b["tip_digest"] as? String ?? "00").flatMap(\.first) ?? 0
            return BranchCandidate(id: id, forkEpoch: UInt64(b["fork_epoch"] as? Int ?? 0), tipEpoch: UInt64(b["tip_epoch"] as? Int ?? 0),
                                   tipPriority: (b["tip_priority"] as? String) == "ordinary" ? .ordinary : .privileged,
                                   tipCommitter: Array(((b["tip_committer"] as? String) ?? id).utf8),
                                   tipDigest: [UInt8](repeating: rank, count: 32),
                                   witnesses: (b["app_witnesses"] as? [[String: Any]] ?? []).map {
                                       .init(epoch: UInt64($0["epoch"] as? Int ?? 0), sender: Array(($0["sender"] as? String ?? "").utf8))
                                   })
        }
        let decision = BranchSelector.select(candidates, passBaseEpoch: UInt64(base), policy: policy)
        let winner = decision.selected?.id ?? "none"
        let reason = decision.decisiveRule.flatMap { reasons[$0] } ?? "none"
        if winner != expected["branch"] as? String { r.failures.append("selected \(winner), expected \(expected["branch"] ?? "?")") }
        if reason != expected["reason"] as? String { r.failures.append("decided by \(reason), expected \(expected["reason"] ?? "?")") }
        return r
    }
}
