import InviteKitCrypto

/// The approval link an invitee sends back to the inviter (PROTOCOL.md §3.1):
/// `whistle://addmember/<pubkeyHex>/<groupId percent-encoded>`.
public struct ApprovalURL: Hashable, Sendable {
    /// Scheme and host of approval links.
    public static let prefix = "whistle://addmember/"
    /// Longest approval URL accepted: room for a group id of ``maxGroupIdBytes`` even when every
    /// byte is percent-encoded (3×), so anything ``url`` produces for such an id parses back.
    public static let maxLength = prefix.utf8.count + 64 + 1 + 3 * maxGroupIdBytes
    /// Longest group id (UTF-8 bytes) an approval carries.
    public static let maxGroupIdBytes = 4096

    /// The invitee's x-only public key.
    public let pubkey: Secp256k1.XOnlyPublicKey
    /// The group the invitee asks to join.
    public let groupId: String

    /// An approval for `pubkey` to join `groupId`.
    public init(pubkey: Secp256k1.XOnlyPublicKey, groupId: String) {
        self.pubkey = pubkey
        self.groupId = groupId
    }

    /// The URL. The group id is percent-encoded except for RFC 3986 unreserved characters, so
    /// a `/`, `?` or `#` in it cannot change the URL's structure.
    public var url: String { Self.prefix + pubkey.hex + "/" + PercentEncoding.encodeUnreserved(groupId) }

    /// Parses an approval URL. The key must be 64 hex digits naming a curve point; the group id
    /// is the rest of the path (up to `?`/`#`), percent-decoded, non-empty, valid UTF-8.
    public init(url input: String) throws(InviteError) {
        guard input.utf8.count <= Self.maxLength else { throw InviteError(.inputTooLarge) }
        let trimmed = input.trimmingASCIIWhitespace()
        guard let (scheme, rest) = PercentEncoding.splitScheme(trimmed), scheme == "whistle",
              rest.lowercased().hasPrefix("addmember/") else {
            throw InviteError(.invalidApprovalURL, "not a whistle://addmember/ URL")
        }
        var body = rest.dropFirst("addmember/".count)
        if let cut = body.firstIndex(where: { $0 == "?" || $0 == "#" }) { body = body[..<cut] }
        guard let slash = body.firstIndex(of: "/") else { throw InviteError(.invalidApprovalURL, "missing group id") }
        guard let keyBytes = Hex.decode(body[..<slash], count: 32) else {
            throw InviteError(.invalidPublicKey, "public key must be 64 hex digits")
        }
        guard let key = try? Secp256k1.XOnlyPublicKey(rawRepresentation: keyBytes) else {
            throw InviteError(.invalidPublicKey, "not a point on secp256k1")
        }
        guard let group = PercentEncoding.decode(body[body.index(after: slash)...]) else {
            throw InviteError(.invalidApprovalURL, "bad percent escape in group id")
        }
        guard !group.isEmpty else { throw InviteError(.invalidApprovalURL, "empty group id") }
        guard group.utf8.count <= Self.maxGroupIdBytes else { throw InviteError(.inputTooLarge, "group id longer than \(Self.maxGroupIdBytes) bytes") }
        self.init(pubkey: key, groupId: group)
    }
}
