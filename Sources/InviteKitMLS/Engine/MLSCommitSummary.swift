/// The effect of an applied commit.
package struct MLSCommitSummary: Sendable {
    /// The committer's leaf index and credential identity.
    package let committer: UInt32
    package let committerIdentity: [UInt8]
    /// The epoch the commit created.
    package let epoch: UInt64
    /// Credential identities added and removed.
    package let added: [[UInt8]]
    package let removed: [[UInt8]]
    /// `true` when the GroupContext extensions changed.
    package let extensionsChanged: Bool
}
