/// The signed content of a Convos-format invite (`InvitePayload`, PROTOCOL.md §3.2).
///
/// Fields 1–10 are Convos's, with Convos's numbers and types. InviteKit adds field 100
/// (`relays`, repeated string): a Nostr joiner must know where to send its join request,
/// and Convos has no such field because XMTP has one network; and field 101 (`mip_profile`,
/// bool): which kind of KeyPackage the group takes. Numbers ≥ 100 leave Convos room
/// to grow. Unknown fields are kept, in order, in ``unknownFields`` so that re-encoding a
/// parsed payload is lossless; the signature always covers the bytes as received anyway.
public struct InvitePayload: Hashable, Sendable {
    /// 1 `bytes`: the encrypted conversation (group) id, see ``ConversationToken``.
    public var conversationToken: [UInt8]
    /// 2 `bytes`: the creator's id; in InviteKit invites the 32-byte x-only public key.
    public var creatorInboxId: [UInt8]
    /// 3 `string`: the invite tag; rotating the group's tag revokes outstanding invites.
    public var tag: String
    /// 4 `optional string`.
    public var name: String?
    /// 5 `optional string` (Convos: `description_p`).
    public var description: String?
    /// 6 `optional string`.
    public var imageURL: String?
    /// 7 `optional sfixed64`: when the conversation itself ends (Unix seconds).
    public var conversationExpiresAtUnix: Int64?
    /// 8 `optional sfixed64`: when this invite stops being accepted (Unix seconds).
    public var expiresAtUnix: Int64?
    /// 9 `bool`: single use. Convos carried it without enforcing it; InviteKit enforces it.
    public var expiresAfterUse: Bool
    /// 10 `optional string`.
    public var emoji: String?
    /// 100 `repeated string` (InviteKit): relays where the creator reads join requests; at most
    /// ``maxRelays``.
    public var relays: [String]
    /// 101 `bool` (InviteKit): the group speaks the MIP profile (group data in extension 0xf2ee,
    /// MDK 0.8; PROTOCOL §3.2, §5.12.1), so the joiner sends a KeyPackage of that profile; absent
    /// (false) for today's Marmot profile. A joiner cannot learn it any other way before it
    /// sends its KeyPackage, and a group admits only KeyPackages of its own profile.
    public var mipProfile: Bool
    /// Fields this version does not know, each as its complete encoding (key and value).
    public var unknownFields: [[UInt8]]

    /// The most relays an invite may name (PROTOCOL §3.2), as many as a joiner takes from a
    /// Welcome: a joiner connects to every relay of the invite, so an uncapped list would let
    /// whoever wrote the invite make `join` open hundreds of connections to hosts of its choice.
    /// A signed invite naming more is refused when parsed (`too_many_relays`) and never built.
    public static let maxRelays = 8

    /// A payload; every field defaults to absent or empty.
    public init(
        conversationToken: [UInt8] = [], creatorInboxId: [UInt8] = [], tag: String = "",
        name: String? = nil, description: String? = nil, imageURL: String? = nil,
        conversationExpiresAtUnix: Int64? = nil, expiresAtUnix: Int64? = nil,
        expiresAfterUse: Bool = false, emoji: String? = nil, relays: [String] = [],
        mipProfile: Bool = false, unknownFields: [[UInt8]] = []
    ) {
        self.conversationToken = conversationToken
        self.creatorInboxId = creatorInboxId
        self.tag = tag
        self.name = name
        self.description = description
        self.imageURL = imageURL
        self.conversationExpiresAtUnix = conversationExpiresAtUnix
        self.expiresAtUnix = expiresAtUnix
        self.expiresAfterUse = expiresAfterUse
        self.emoji = emoji
        self.relays = relays
        self.mipProfile = mipProfile
        self.unknownFields = unknownFields
    }
}
