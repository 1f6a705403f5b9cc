/// One Commit of a large add (``MarmotGroup/nextAddCommit(from:budget:now:rng:)``).
public struct MarmotAddStep: Sendable {
    /// The Commit of the first ``added`` KeyPackages; publish it and confirm it before the next step.
    public let pending: MarmotPendingCommit<MLSGroupState>
    public let added: Int
    /// KeyPackages left for later Commits.
    public let remaining: Int
    /// The leaves the Commit fills, in add order (for ``LargeGroupFill``).
    public var addedLeaves: [UInt32] { pending.pending.added.map(\.leaf) }
}
