/// What goes into a new signed invite besides the conversation and the creator.
public struct InviteOptions: Sendable, Hashable {
    /// Relays where the creator reads join requests (payload field 100).
    public var relays: [String]
    /// Group name shown to the invitee.
    public var name: String?
    /// Group description shown to the invitee.
    public var description: String?
    /// Group image.
    public var imageURL: String?
    /// Group emoji.
    public var emoji: String?
    /// Invite expiry, Unix seconds.
    public var expiresAtUnix: Int64?
    /// Conversation expiry, Unix seconds.
    public var conversationExpiresAtUnix: Int64?
    /// The invite admits one joiner (`expiresAfterUse`).
    public var singleUse: Bool
    /// The group's current tag. When `nil`, `SignedInvite.create` draws a fresh one, which
    /// matches no existing group's tag: a creator that checks tags (InviteKit's
    /// `JoinRequestProcessor`) refuses such an invite as revoked. `JoinRequestProcessor.invite(for:)`
    /// fills in the hosted group's current tag instead.
    public var tag: String?
    /// The group speaks the MIP profile (payload field 101): joiners send a MIP-profile KeyPackage.
    /// `JoinRequestProcessor.invite(for:)` and the node set it from the hosted group.
    public var mipProfile: Bool

    /// Options; all optional, not single use by default.
    public init(
        relays: [String] = [], name: String? = nil, description: String? = nil, imageURL: String? = nil,
        emoji: String? = nil, expiresAtUnix: Int64? = nil, conversationExpiresAtUnix: Int64? = nil,
        singleUse: Bool = false, tag: String? = nil, mipProfile: Bool = false
    ) {
        self.relays = relays
        self.name = name
        self.description = description
        self.imageURL = imageURL
        self.emoji = emoji
        self.expiresAtUnix = expiresAtUnix
        self.conversationExpiresAtUnix = conversationExpiresAtUnix
        self.singleUse = singleUse
        self.tag = tag
        self.mipProfile = mipProfile
    }
}
