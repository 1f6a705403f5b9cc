import InviteKitNostr

/// What a kind-445 event carried, at the Nostr level.
public enum GroupEventOutcome: Sendable {
    /// An application message: the inner unsigned event, whose pubkey is the authenticated sender.
    case message(NostrEvent, epoch: UInt64)
    /// An application message whose inner event is invalid or claims another author.
    case rejectedMessage(GroupError)
    case commitApplied(epoch: UInt64)
    case rolledBack(toEpoch: UInt64, nowAt: UInt64)
    case leaveRequest(pubkey: String)
    case removed
}
