import InviteKitNostr

/// What one inbound kind-445 event did to a ``MarmotGroup``.
public enum MarmotOutcome: Sendable {
    /// An application message: the sender's unsigned rumor.
    case message(NostrEvent, epoch: UInt64)
    /// A commit moved the group to `epoch`; identities as lowercase hex.
    case commitApplied(epoch: UInt64, added: [String], removed: [String])
    /// A better commit for `toEpoch` replaced the branch this member was on; the group is now at
    /// `nowAt`. `lostAdds` are the members the abandoned branch had added who are not in the new
    /// one: their Welcomes lead nowhere, so the inviter re-adds them.
    case rolledBack(toEpoch: UInt64, nowAt: UInt64, lostAdds: [MarmotLostAdd])
    /// A commit for an epoch already decided by a better commit: ignored.
    case superseded(epoch: UInt64)
    /// A member asked to leave (SelfRemove); an admin commits it.
    case leaveRequest(pubkey: String)
    /// A commit removed this member: it reads nothing from now on.
    case removed
    /// The same event, or the same content in another wrapper, was seen before.
    case duplicate
    /// No retained key opens the event yet, or it is a commit referencing a proposal not received
    /// yet: it is kept and retried after each epoch change or proposal.
    case buffered
    /// The buffer was full (PROTOCOL.md §5.9): this earlier buffered event (its id) was dropped
    /// to make room, or the event just received was larger than the whole buffer.
    case evicted(eventID: String)
    /// The event was refused.
    case rejected(MLSError)
}

/// A member added on a branch that lost a commit race.
public struct MarmotLostAdd: Sendable, Hashable {
    /// The member's Nostr public key, lowercase hex.
    public let pubkey: String
    /// The KeyPackage event used, when this member made the losing commit.
    public let keyPackageEvent: NostrEvent?
}
