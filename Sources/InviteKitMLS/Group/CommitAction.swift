/// What a committer asks for; ``GroupState/createCommit(_:rng:)`` turns these into ``Proposal``s.
public enum CommitAction: Sendable {
    /// Add the owner of a (verified) KeyPackage.
    case add(KeyPackage, isAdmin: Bool = false)
    /// Remove a member by Nostr identity (admins only).
    case remove(identity: [UInt8])
    /// Commit a member's leave request (admins only).
    case selfRemove(identity: [UInt8])
    /// Rotate the committer's own leaf keys (any member).
    case selfUpdate
}
