import InviteKitCrypto
import InviteKitMLS

/// The one group engine: the Marmot binding (MIP-01..03) over the RFC 9420 engine.
public typealias MarmotMLSGroup = MarmotGroup<MLSGroupState>

/// A group as its inviter hosts it: the Marmot group plus what invites need.
public struct HostedGroup: Sendable {
    public var group: MarmotMLSGroup
    /// The tag every valid invite must carry. Rotating it revokes all earlier invites.
    public var currentTag: String
    /// Relays the group's events and Welcomes go to.
    public var relays: [String]
    public var name: String?

    public init(group: MarmotMLSGroup, currentTag: String, relays: [String], name: String? = nil) {
        self.group = group; self.currentTag = currentTag; self.relays = relays; self.name = name
    }

    /// The conversation id an invite's token carries: the group's private MLS group id, hex.
    /// Unlike the `h` tag it never appears on a relay.
    public var conversationID: String { InviteKitCrypto.Hex.encode(group.state.groupID) }
    public var nostrGroupID: String { InviteKitCrypto.Hex.encode(group.nostrGroupID) }
}
