import InviteKitCrypto

/// `marmot.group.invite-links.v1`, component `0x800e`, GroupContext `app_data_dictionary` only
/// (`shared/marmot/v2/app-components/group-invite-links-v1.md` "Registry and presence", "State bytes";
/// PROTOCOL §5.14.1):
///
///     struct { InviteLinkV1 links<0..1096>; } InviteLinksV1;
///
/// At most eight 137-byte entries, strictly ascending by `link_id`, no two sharing an
/// `inbox_pubkey`. The AppDataUpdate is the whole replacement; an empty vector disables links.
/// Update rules against the parent are ``validateTransition(from:to:context:)``.
public struct InviteLinksV1: Hashable, Sendable {
    /// The most entries a state holds.
    public static let maxEntries = 8
    /// The vector's byte bound, `8 × 137`.
    public static let maxVectorBytes = maxEntries * InviteLinkV1.byteCount

    /// Ascending by `link_id`.
    public let links: [InviteLinkV1]

    /// Sorts by `link_id`; refuses more than eight entries, a repeated id or a repeated inbox
    /// (`invalid_invite_links`).
    public init(links: [InviteLinkV1]) throws {
        let sorted = links.sorted { $0.linkID.lexicographicallyPrecedes($1.linkID) }
        try Self.validate(sorted)
        self.links = sorted
    }

    /// The empty state (links disabled, feature still negotiated).
    public static let empty = InviteLinksV1(validated: [])

    private init(validated: [InviteLinkV1]) { links = validated }

    private static func validate(_ links: [InviteLinkV1]) throws {
        guard links.count <= maxEntries else { throw MLSError(.invalidInviteLinks, "\(links.count) entries, above \(maxEntries)") }
        try InviteLinkCodec.requireSortedUnique(links.map(\.linkID), .invalidInviteLinks, "link ids")
        guard Set(links.map(\.inboxPublicKey)).count == links.count else { throw MLSError(.invalidInviteLinks, "two entries share an inbox_pubkey") }
    }

    /// The component bytes.
    public var encoded: [UInt8] {
        InviteLinkCodec.encode { w in w.writeVector { inner in for l in links { l.encode(to: &inner) } } }
    }

    /// Reads strictly: shortest length, a whole number of valid entries, at most eight, sorted,
    /// unique ids and inboxes, nothing after (`invalid_invite_links`).
    public init(decoding bytes: [UInt8]) throws {
        let links = try InviteLinkCodec.decode(bytes, .invalidInviteLinks, "invite links") { r -> [InviteLinkV1] in
            let body = try InviteLinkCodec.readOpaque(&r, 0...Self.maxVectorBytes, .invalidInviteLinks, "links")
            guard body.count % InviteLinkV1.byteCount == 0 else {
                throw MLSError(.invalidInviteLinks, "links is \(body.count) bytes, not a whole number of 137-byte entries")
            }
            var sub = TLSReader(body)
            var out: [InviteLinkV1] = []
            while !sub.isAtEnd { out.append(try InviteLinkV1(from: &sub)) }
            return out
        }
        try Self.validate(links)
        self.links = links
    }

    /// The entry with `linkID`, if any.
    public func link(_ linkID: [UInt8]) -> InviteLinkV1? { links.first { $0.linkID == linkID } }
}
