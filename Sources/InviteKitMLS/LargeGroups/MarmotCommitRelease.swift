import InviteKitNostr

/// What a confirmed commit releases in a large group (PROTOCOL §5.11): publish ``treeChunks``
/// first (each acknowledged by at least one relay), then ``welcomes``.
public struct MarmotCommitRelease: Sendable {
    /// Kind-447 chunk events of the new epoch's ratchet tree; empty when the tree is inline.
    public let treeChunks: [NostrEvent]
    /// One gift-wrapped Welcome per added KeyPackage, in add order.
    public let welcomes: [MarmotWelcomeDelivery]

    /// Every event, in publishing order.
    public var events: [NostrEvent] { treeChunks + welcomes.map(\.wrap) }
}
