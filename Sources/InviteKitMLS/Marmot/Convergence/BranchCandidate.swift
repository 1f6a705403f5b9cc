/// One candidate branch of a convergence pass (`convergence.md`, "Candidate branches"): from the
/// epoch where it left the retained canonical state to the tip its valid commits reach. Every
/// field comes from MLS-valid bytes, retained state or decrypted app payloads, never from
/// transport metadata (relay time, event ids, arrival order).
public struct BranchCandidate: Sendable, Hashable {
    /// An application message that decrypted and passed the payload checks on this branch.
    public struct Witness: Sendable, Hashable {
        /// A branch epoch (greater than the fork epoch, at most the tip).
        public let epoch: UInt64
        /// The sender's Marmot account identity (32 bytes), from the MLS leaf credential.
        public let sender: [UInt8]

        public init(epoch: UInt64, sender: [UInt8]) {
            self.epoch = epoch
            self.sender = sender
        }
    }

    /// A label for traces; never compared by the selector (branch order is the comparison's).
    public let id: String
    public let forkEpoch: UInt64
    public let tipEpoch: UInt64
    public let tipPriority: CommitPriority
    /// The tip committer's account identity: raw 32-byte x-only key, compared bytewise.
    public let tipCommitter: [UInt8]
    /// SHA-256 of the tip Commit's MLSMessage bytes (32 bytes).
    public let tipDigest: [UInt8]
    public let witnesses: [Witness]

    public init(id: String, forkEpoch: UInt64, tipEpoch: UInt64, tipPriority: CommitPriority, tipCommitter: [UInt8], tipDigest: [UInt8],
                witnesses: [Witness]) {
        self.id = id
        self.forkEpoch = forkEpoch
        self.tipEpoch = tipEpoch
        self.tipPriority = tipPriority
        self.tipCommitter = tipCommitter
        self.tipDigest = tipDigest
        self.witnesses = witnesses
    }

    /// The number of valid commits from the fork epoch to the tip.
    public var rawCommitDepth: UInt64 { tipEpoch >= forkEpoch ? tipEpoch - forkEpoch : 0 }
}
