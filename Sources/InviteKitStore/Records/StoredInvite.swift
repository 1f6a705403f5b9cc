/// An invite this node created.
public struct StoredInvite: Sendable, Hashable {
    public enum Format: String, Sendable { case signed, whistle }

    /// The invite's own id: for a signed invite, SHA-256 of its payload bytes (hex), the key its
    /// single use is recorded under; for a Whistle code `whistle:<nostr group id>`.
    public var id: String
    public var tag: String
    public var groupID: String
    public var format: Format
    public var url: String
    public var singleUse: Bool
    public var expiresAt: Int64?
    public var createdAt: Int64
    /// Set when the group's tag was rotated away from this invite's tag.
    public var revokedAt: Int64?

    public init(id: String? = nil, tag: String, groupID: String, format: Format, url: String, singleUse: Bool, expiresAt: Int64?,
                createdAt: Int64, revokedAt: Int64? = nil) {
        self.id = id ?? tag; self.tag = tag; self.groupID = groupID; self.format = format; self.url = url; self.singleUse = singleUse
        self.expiresAt = expiresAt; self.createdAt = createdAt; self.revokedAt = revokedAt
    }
}
