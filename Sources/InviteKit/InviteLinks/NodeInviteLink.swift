import InviteKitCrypto
import InviteKitMLS
import InviteKitStore

/// One invite-link generation of a group, as an admin's node holds it (PROTOCOL §5.14.15):
/// ``InviteKitNode/createInviteLink(in:approval:expiresAt:name:description:requestRelays:timeout:)``
/// returns it once the link is usable, ``InviteKitNode/inviteLinks(in:)`` lists them.
public struct NodeInviteLink: Sendable {
    /// The group's private id.
    public let groupID: String
    /// The link id, lowercase hex.
    public let linkID: String
    /// The complete code to share (`code.bech32m` is the `marmot1…` text). It holds the bearer
    /// and the preview key: whoever has it can read the preview and ask to join.
    public let code: InviteCodeV1
    /// The entry in component `0x800e`.
    public let entry: InviteLinkV1
    /// `active` once the policy Commit was applied; `retired` once revoked or rotated away.
    public let state: InviteLinkRecord.State
    public let createdAt: Int64

    public var approvalMode: InviteLinkV1.ApprovalMode { entry.approvalMode }
    /// 0 for no expiry, else a Unix time in seconds.
    public var expiresAt: UInt64 { entry.expiresAt }
}
