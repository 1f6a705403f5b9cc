/// Why an event is in the outbound queue (`outbound.purpose`, docs/storage.md §6): the one list of
/// names, so the node, the CLI and the tests ask it rather than spell strings.
public struct OutboundPurpose: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }

    /// A group message (kind 445).
    public static let message: OutboundPurpose = "message"
    /// An own Commit (kind 445): its `OK` applies it.
    public static let commit: OutboundPurpose = "commit"
    /// A gift-wrapped Welcome, gated on its Commit (MIP-02).
    public static let welcome: OutboundPurpose = "welcome"
    /// A ratchet-tree chunk (kind 447, PROTOCOL §5.11), gated on the one before it (the first on
    /// its Commit): every chunk is stored before a Welcome naming them goes out.
    public static let treeChunk: OutboundPurpose = "tree_chunk"
    /// A gift-wrapped `invite_join_error` (PROTOCOL §8.2).
    public static let joinError: OutboundPurpose = "join_error"
    /// A KeyPackage event (kind 30443, MIP-00).
    public static let keyPackage: OutboundPurpose = "key_package"
    /// A gift-wrapped join request (PROTOCOL §8).
    public static let joinRequest: OutboundPurpose = "join_request"
    /// A member's SelfRemove proposal.
    public static let leave: OutboundPurpose = "leave"
    /// The account's relay lists (kinds 10002 and 10050, PROTOCOL §5.12.6).
    public static let relayList: OutboundPurpose = "relay_list"
    /// A requester's gift-wrapped invite-link request, refresh or withdrawal (kind 459,
    /// PROTOCOL §5.14.12), to the code's inbox on the code's relays.
    public static let inviteLinkRequest: OutboundPurpose = "invite_link_request"
}
