/// A commit this member created but has not merged: publish ``message``, and once the delivery
/// service accepted it, ``MLSGroupState/merge(_:)`` it and send ``welcome`` to the new members.
public struct MLSPendingCommit: Sendable {
    /// The commit as a serialized MLSMessage (PublicMessage or PrivateMessage).
    package let message: [UInt8]
    /// The Welcome for the added members, as a serialized MLSMessage, when the commit adds any.
    package let welcome: [UInt8]?
    /// The Welcome structure itself.
    package let welcomeValue: Welcome?
    /// The epoch the commit was made in.
    package let fromEpoch: UInt64
    /// The state after the commit.
    let next: MLSGroupState

    /// The epoch the commit creates.
    package var toEpoch: UInt64 { next.epoch }
    /// Leaves the commit fills, with their KeyPackages.
    package let added: [(leaf: UInt32, keyPackage: KeyPackage)]
    /// Leaves the commit empties.
    package let removed: [UInt32]
}
