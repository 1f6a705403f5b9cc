/// This home's own view of one group (docs/storage.md §6): how far it has read, whether it is
/// muted or pinned. Local to the home: nothing of it is sent to the group (PROTOCOL §5.16).
public struct GroupReadState: Sendable, Hashable {
    public var groupID: String
    /// The newest message marked read, if any.
    public var lastReadEventID: String?
    /// Messages from others after the last one read.
    public var unreadCount: Int
    public var muted: Bool
    /// When the group was pinned; `nil` when it is not.
    public var pinnedAt: Int64?

    public var pinned: Bool { pinnedAt != nil }

    public init(groupID: String, lastReadEventID: String?, unreadCount: Int, muted: Bool, pinnedAt: Int64?) {
        self.groupID = groupID; self.lastReadEventID = lastReadEventID; self.unreadCount = unreadCount
        self.muted = muted; self.pinnedAt = pinnedAt
    }
}
