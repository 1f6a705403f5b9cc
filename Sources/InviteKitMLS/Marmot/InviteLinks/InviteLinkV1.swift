import InviteKitCrypto

/// One invitation generation in component `0x800e` (`shared/marmot/v2/app-components/group-invite-links-v1.md`
/// "State bytes"; PROTOCOL §5.14.1):
///
///     struct {
///       opaque link_id[32]; opaque inbox_pubkey[32]; opaque bearer_hash[32]; opaque preview_hash[32];
///       uint64 expires_at; uint8 approval_mode;
///     } InviteLinkV1;   // exactly 137 bytes
///
/// `inbox_pubkey` is a valid x-only secp256k1 key, `expires_at` is 0 (no expiry) or
/// `1...2^53 - 1`, `approval_mode` is manual (0) or automatic (1). No secret is stored here.
public struct InviteLinkV1: Hashable, Sendable {
    /// The encoded size of every entry.
    public static let byteCount = 137

    /// `approval_mode`.
    public enum ApprovalMode: UInt8, Sendable {
        case manual = 0
        case automatic = 1
    }

    public let linkID: [UInt8]
    public let inboxPublicKey: [UInt8]
    /// `SHA-256(bearer)`.
    public let bearerHash: [UInt8]
    /// `SHA-256` of the encoded ``InvitePreviewV1``.
    public let previewHash: [UInt8]
    /// 0 for no expiry, else a Unix time in seconds.
    public let expiresAt: UInt64
    public let approvalMode: ApprovalMode

    /// Checks every field (`invalid_invite_links`).
    public init(linkID: [UInt8], inboxPublicKey: [UInt8], bearerHash: [UInt8], previewHash: [UInt8], expiresAt: UInt64,
                approvalMode: ApprovalMode) throws {
        let code = MLSError.Code.invalidInviteLinks
        try InviteLinkCodec.require(linkID, count: 32, code, "link_id")
        try InviteLinkCodec.requireXOnly(inboxPublicKey, code, "inbox_pubkey")
        try InviteLinkCodec.require(bearerHash, count: 32, code, "bearer_hash")
        try InviteLinkCodec.require(previewHash, count: 32, code, "preview_hash")
        try InviteLinkCodec.requireTime(expiresAt, allowZero: true, code, "expires_at")
        self.linkID = linkID
        self.inboxPublicKey = inboxPublicKey
        self.bearerHash = bearerHash
        self.previewHash = previewHash
        self.expiresAt = expiresAt
        self.approvalMode = approvalMode
    }

    /// The 137 bytes.
    public var encoded: [UInt8] { InviteLinkCodec.encode { encode(to: &$0) } }

    func encode(to w: inout TLSWriter) {
        w.writeBytes(linkID); w.writeBytes(inboxPublicKey); w.writeBytes(bearerHash); w.writeBytes(previewHash)
        w.writeUInt64(expiresAt); w.writeUInt8(approvalMode.rawValue)
    }

    /// Reads exactly 137 bytes (`invalid_invite_links`).
    public init(decoding bytes: [UInt8]) throws {
        self = try InviteLinkCodec.decode(bytes, .invalidInviteLinks, "invite link entry") { try Self(from: &$0) }
    }

    /// Reads one entry from `r`.
    init(from r: inout TLSReader) throws {
        let linkID = try InviteLinkCodec.read32(&r), inbox = try InviteLinkCodec.read32(&r)
        let bearerHash = try InviteLinkCodec.read32(&r), previewHash = try InviteLinkCodec.read32(&r)
        let expiresAt = try r.readUInt64()
        let rawMode = try r.readUInt8()
        guard let mode = ApprovalMode(rawValue: rawMode) else { throw MLSError(.invalidInviteLinks, "approval_mode \(rawMode) is not 0 or 1") }
        try self.init(linkID: linkID, inboxPublicKey: inbox, bearerHash: bearerHash, previewHash: previewHash, expiresAt: expiresAt,
                      approvalMode: mode)
    }
}
