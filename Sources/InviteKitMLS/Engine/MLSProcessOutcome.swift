/// What processing one MLSMessage did to a group state.
package enum MLSProcessOutcome: Sendable {
    /// An application message from a member (RFC 9420 §6.3).
    case application(sender: UInt32, identity: [UInt8], data: [UInt8], authenticatedData: [UInt8], epoch: UInt64)
    /// A proposal, cached by its reference until a commit includes it (RFC 9420 §12).
    case proposal(reference: [UInt8], proposal: Proposal, sender: UInt32)
    /// A commit moved the group to a new epoch.
    case commit(MLSCommitSummary)
    /// A commit removed this member: the state can read nothing of the new epoch.
    case removed(MLSCommitSummary)
}
