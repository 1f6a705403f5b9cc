import InviteKitCrypto

/// One invite-link generation an admin holds (docs/storage.md §6, `invite_links`): its sealed
/// secrets (inbox key, bearer, preview key) and where its activation stands.
public struct InviteLinkRecord: Sendable {
    /// `activating` until the policy Commit adding its entry is applied, then `active`; `retired`
    /// once selected state no longer holds the entry; `failed` when the activation Commit was
    /// rolled back (the generation was never usable and is never reused).
    public enum State: String, Sendable { case activating, active, retired, failed }

    /// The link id, lowercase hex.
    public var linkID: String
    public var groupID: String
    /// The serialized generation (`InviteLinkGeneration.serialized()`); secret.
    public var generation: SecureBytes
    public var state: State
    /// The policy Commit that activates the entry.
    public var commitEventID: String?
    /// The newest kind 30444 descriptor queued for the link's relays.
    public var descriptorEventID: String?
    /// The other admins (lowercase hex accounts) this node sent the generation's grant to.
    public var grantedAdmins: [String]
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(linkID: String, groupID: String, generation: SecureBytes, state: State, commitEventID: String?, descriptorEventID: String? = nil,
                grantedAdmins: [String] = [], createdAt: Int64, updatedAt: Int64) {
        self.linkID = linkID; self.groupID = groupID; self.generation = generation; self.state = state
        self.commitEventID = commitEventID; self.descriptorEventID = descriptorEventID; self.grantedAdmins = grantedAdmins
        self.createdAt = createdAt; self.updatedAt = updatedAt
    }
}
