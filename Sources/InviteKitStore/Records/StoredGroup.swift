import InviteKitCrypto

/// A group this node is in. `state` is the group engine's own serialization, opaque here:
/// `engine` and `engineVersion` say who wrote it, so a new engine can refuse or convert it.
public struct StoredGroup: Sendable {
    /// The private group id (hex), as invites carry it.
    public var id: String
    /// The public `h`-tag id (hex).
    public var nostrGroupID: String
    public var name: String?
    public var engine: String
    public var engineVersion: Int
    /// Holds epoch secrets: kept in ``SecureBytes``.
    public var state: SecureBytes
    public var epoch: UInt64
    /// The tag valid invites must carry (rotating it revokes every earlier invite).
    public var currentTag: String?
    public var relays: [String]
    public var updatedAt: Int64
    /// When a Commit removed this node from the group (it reads nothing more from it).
    public var removedAt: Int64?

    public init(id: String, nostrGroupID: String, name: String?, engine: String, engineVersion: Int, state: SecureBytes,
                epoch: UInt64, currentTag: String?, relays: [String], updatedAt: Int64, removedAt: Int64? = nil) {
        self.id = id; self.nostrGroupID = nostrGroupID; self.name = name; self.engine = engine
        self.engineVersion = engineVersion; self.state = state; self.epoch = epoch; self.currentTag = currentTag
        self.relays = relays; self.updatedAt = updatedAt; self.removedAt = removedAt
    }
}
