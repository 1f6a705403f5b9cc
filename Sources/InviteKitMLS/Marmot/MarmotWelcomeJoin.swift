/// A gift-wrapped Welcome opened with its stored KeyPackage, before the join
/// (``MarmotGroup/openWelcome(gift:recipient:store:)``, PROTOCOL §5.11).
public struct MarmotWelcomeJoin: Sendable {
    /// The kind-444 rumor as read.
    package let parsed: MarmotWelcomeRumor.Parsed
    /// The wrap's verified sender (32-byte key); it must be an admin of the group.
    let sender: [UInt8]
    /// The KeyPackageRef consumed once the join succeeds: which of this member's KeyPackages the
    /// Welcome was made for, so a caller with several joins under way knows which one it answers.
    public let reference: [UInt8]
    let opening: MLSWelcomeOpening

    /// The chunk events to fetch when the Welcome's tree is out of band; `nil` when it is inline.
    public var treeChunks: RatchetTreeChunks.Reference? { opening.treeIsOutOfBand ? parsed.treeChunks : nil }
    /// The relays to ask first: the Welcome's `relays` tag.
    public var relays: [String] { parsed.relays }
}
