/// A commit this member made, not yet merged. Its Welcomes are only handed out by
/// ``GroupSession/confirmPublished(_:sealed:createdAt:eventID:)`` (the state-fork rule, PROTOCOL.md §5.6).
public struct CommitBundle: Sendable {
    /// The signed commit (content type `commit`) with its confirmation tag.
    public let plaintext: GroupEventPlaintext
    /// The state after the commit.
    public let newState: GroupState
    /// The epoch the commit applies to.
    public let baseEpoch: UInt64
    /// Identities removed by the commit.
    public let removedIdentities: [[UInt8]]
    /// Serialized GroupContext the commit was built on (identifies the branch, not just the epoch).
    let baseContext: [UInt8]
    let welcomes: [LegacyWelcome]
    /// How many Welcomes wait for the publish confirmation.
    public var pendingWelcomeCount: Int { welcomes.count }
}
