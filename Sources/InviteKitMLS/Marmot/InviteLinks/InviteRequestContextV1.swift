import InviteKitCrypto

/// The fixed context of one request attempt (`shared/marmot/v2/foundation/invite-link-records.md`
/// "Encoding and scope"; PROTOCOL §5.14.5):
///
///     struct {
///       uint16 version;                 // 1
///       opaque inbox_pubkey[32]; opaque link_id[32]; opaque request_id[32];
///       opaque requester_account[32];   // x-only secp256k1
///       opaque consent_key[32];         // Ed25519
///       uint64 valid_until;             // 1..2^53 - 1
///     } InviteRequestContextV1;         // 170 bytes
///
/// Preserved unchanged by every refresh, the withdrawal and the statuses of the attempt.
public struct InviteRequestContextV1: Hashable, Sendable {
    public static let version: UInt16 = 1
    public static let byteCount = 170

    public let inboxPublicKey: [UInt8]
    public let linkID: [UInt8]
    public let requestID: [UInt8]
    public let requesterAccount: [UInt8]
    /// The originating leaf's Ed25519 signature key at revision zero.
    public let consentKey: [UInt8]
    public let validUntil: UInt64

    /// Checks every field (`invalid_invite_record`): valid secp256k1 inbox and account keys, a
    /// valid Ed25519 consent key, `valid_until` in `1...2^53 - 1`.
    public init(inboxPublicKey: [UInt8], linkID: [UInt8], requestID: [UInt8], requesterAccount: [UInt8], consentKey: [UInt8],
                validUntil: UInt64) throws {
        let code = MLSError.Code.invalidInviteRecord
        try InviteLinkCodec.requireXOnly(inboxPublicKey, code, "inbox_pubkey")
        try InviteLinkCodec.require(linkID, count: 32, code, "link_id")
        try InviteLinkCodec.require(requestID, count: 32, code, "request_id")
        try InviteLinkCodec.requireXOnly(requesterAccount, code, "requester_account")
        guard Ed25519.isValidPublicKey(consentKey) else { throw MLSError(code, "consent_key is not a valid Ed25519 public key") }
        try InviteLinkCodec.requireTime(validUntil, allowZero: false, code, "valid_until")
        self.inboxPublicKey = inboxPublicKey
        self.linkID = linkID
        self.requestID = requestID
        self.requesterAccount = requesterAccount
        self.consentKey = consentKey
        self.validUntil = validUntil
    }

    public var encoded: [UInt8] { InviteLinkCodec.encode { encode(to: &$0) } }

    func encode(to w: inout TLSWriter) {
        w.writeUInt16(Self.version); w.writeBytes(inboxPublicKey); w.writeBytes(linkID); w.writeBytes(requestID)
        w.writeBytes(requesterAccount); w.writeBytes(consentKey); w.writeUInt64(validUntil)
    }

    /// Reads exactly 170 bytes (`invalid_invite_record`).
    public init(decoding bytes: [UInt8]) throws {
        self = try InviteLinkCodec.decode(bytes, .invalidInviteRecord, "request context") { try Self(from: &$0) }
    }

    init(from r: inout TLSReader) throws {
        let version = try r.readUInt16()
        guard version == Self.version else { throw MLSError(.invalidInviteRecord, "unknown request context version \(version)") }
        let inbox = try InviteLinkCodec.read32(&r), linkID = try InviteLinkCodec.read32(&r), requestID = try InviteLinkCodec.read32(&r)
        let account = try InviteLinkCodec.read32(&r), consentKey = try InviteLinkCodec.read32(&r)
        try self.init(inboxPublicKey: inbox, linkID: linkID, requestID: requestID, requesterAccount: account, consentKey: consentKey,
                      validUntil: try r.readUInt64())
    }
}
