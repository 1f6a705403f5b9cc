import InviteKitMLS
import InviteKitNostr

/// A change to a hosted group that adds nobody (for now: promoting a member to admin), built
/// by an admin and not applied until a relay stored its Commit (MIP-03: as for a join).
public struct PendingGroupChange: Sendable {
    public let conversationID: String
    let commit: MarmotPendingCommit<MLSGroupState>
    /// The kind-445 Commit to publish.
    public var event: NostrEvent { commit.event }
}
