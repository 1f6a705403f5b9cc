import InviteKitCrypto
import InviteKitMLS

/// A group as its inviter hosts it: the MLS session plus what invites need.
public struct HostedGroup: Sendable {
    public var session: GroupSession
    /// The tag every valid invite must carry. Rotating it revokes all earlier invites.
    public var currentTag: String
    /// Relays the group's events and Welcomes go to.
    public var relays: [String]
    public var name: String?

    public init(session: GroupSession, currentTag: String, relays: [String], name: String? = nil) {
        self.session = session; self.currentTag = currentTag; self.relays = relays; self.name = name
    }

    /// The conversation id an invite's token carries: the group's private MLS group id, hex.
    /// Unlike the `h` tag it never appears on a relay.
    public var conversationID: String { InviteKitCrypto.Hex.encode(session.state.groupID) }
    public var nostrGroupID: String { InviteKitCrypto.Hex.encode(session.state.nostrGroupID) }
}
