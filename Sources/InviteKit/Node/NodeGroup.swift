/// A group as an app sees it through ``InviteKitNode``: ids, name, this node's role, epoch.
public struct NodeGroup: Sendable, Hashable, Identifiable {
    /// This node's place in the group (MIP-01 `admin_pubkeys`).
    public enum Role: String, Sendable, Hashable {
        case admin, member
    }

    /// The private MLS group id (hex): what invites carry and the node's methods take.
    public let id: String
    /// The public `h`-tag id (hex) of its kind-445 events (MIP-03).
    public let nostrGroupID: String
    public let name: String?
    public let role: Role
    /// Whether this node makes invites for it (it created the group and holds its invite tag).
    public let hostsInvites: Bool
    public let epoch: UInt64
    public let relays: [String]
    /// A Commit removed this node: the group is kept for its history, nothing more is read.
    public let isRemoved: Bool
    /// The group's Marmot profile, fixed for its life (PROTOCOL §5.12).
    public let profile: MarmotWireProfile
    /// The group's description (MIP-01 group data; component `0x8001`).
    public var description: String = ""
    /// A Commit disbanded the group (component `0x800c`, PROTOCOL §5.16): it takes no change.
    public var isDisbanded = false
}
