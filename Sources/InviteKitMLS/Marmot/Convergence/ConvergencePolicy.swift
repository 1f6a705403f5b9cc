/// The fixed constants convergence runs with (`protocol-core/convergence.md`, "Convergence
/// policy"). Version 1 is a protocol constant, not group state and not a local preference: every
/// client resolves every pass with ``v1``. Other values exist only so the spec's branch-selector
/// cases (`formal/tamarin/policy_cases.json`), which vary them, can be checked.
public struct ConvergencePolicy: Sendable, Hashable {
    /// How far back from the pass's base epoch a branch may fork and still be eligible.
    public let maxRewindCommits: UInt64
    /// How many epochs back an application message still delivers or witnesses
    /// (`retained-history.md`, "App-payload retention").
    public let appPayloadPastEpochLimit: UInt64
    /// Quiet time after the last selection-relevant input before a pass may close (ms).
    public let settlementQuiescenceMilliseconds: UInt64
    /// A pass's collection window never lasts longer than this from its start (ms).
    public let maxConvergencePassMilliseconds: UInt64
    /// Distinct senders one branch epoch needs to count toward witness quorum.
    public let witnessQuorumSendersPerEpoch: Int
    /// Branch epochs that must reach sender quorum.
    public let witnessQuorumEpochs: Int
    /// The depth a branch gains from witness quorum; never more than ``maxRewindCommits``.
    public let maxWitnessOverrideDepth: UInt64

    /// The Marmot convergence policy, version 1.
    public static let v1 = ConvergencePolicy(maxRewindCommits: 5, appPayloadPastEpochLimit: 5, settlementQuiescenceMilliseconds: 1000,
                                             maxConvergencePassMilliseconds: 5000, witnessQuorumSendersPerEpoch: 2,
                                             witnessQuorumEpochs: 1, maxWitnessOverrideDepth: 1)

    /// A policy; the witness boost is capped at the rewind horizon, as the spec requires of any
    /// policy (a larger boost would let app traffic beat an arbitrarily longer commit branch).
    public init(maxRewindCommits: UInt64, appPayloadPastEpochLimit: UInt64, settlementQuiescenceMilliseconds: UInt64,
                maxConvergencePassMilliseconds: UInt64, witnessQuorumSendersPerEpoch: Int, witnessQuorumEpochs: Int,
                maxWitnessOverrideDepth: UInt64) {
        self.maxRewindCommits = maxRewindCommits
        self.appPayloadPastEpochLimit = appPayloadPastEpochLimit
        self.settlementQuiescenceMilliseconds = settlementQuiescenceMilliseconds
        self.maxConvergencePassMilliseconds = maxConvergencePassMilliseconds
        self.witnessQuorumSendersPerEpoch = max(0, witnessQuorumSendersPerEpoch)
        self.witnessQuorumEpochs = max(0, witnessQuorumEpochs)
        self.maxWitnessOverrideDepth = min(maxWitnessOverrideDepth, maxRewindCommits)
    }
}
