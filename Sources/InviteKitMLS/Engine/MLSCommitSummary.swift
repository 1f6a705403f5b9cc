/// The effect of an applied commit.
public struct MLSCommitSummary: Sendable {
    /// The committer's leaf index and credential identity.
    public let committer: UInt32
    public let committerIdentity: [UInt8]
    /// The epoch the commit created.
    public let epoch: UInt64
    /// Credential identities added and removed.
    public let added: [[UInt8]]
    public let removed: [[UInt8]]
    /// `true` when the GroupContext extensions changed.
    public let extensionsChanged: Bool
}
