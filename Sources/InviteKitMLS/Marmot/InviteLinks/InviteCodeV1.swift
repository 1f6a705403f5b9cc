import InviteKitCrypto

/// The complete invite code (`shared/marmot/v2/transports/nostr-invite-links.md` "Long code";
/// PROTOCOL §5.14.3):
///
///     struct {
///       uint16 version;              // 1
///       opaque inbox_pubkey[32]; opaque link_id[32]; opaque bearer[32]; opaque preview_key[32];
///       RelayURL request_relays<1..4096>;   // 1–8 sorted unique wss:// URLs
///     } InviteCodeV1;
///
/// Its text form is Bech32m with prefix `marmot` (``bech32m``, ``init(bech32m:)``). The bearer
/// and preview key are secrets, held in zeroizing storage; the encoded bytes carry them.
public struct InviteCodeV1: Sendable {
    public static let version: UInt16 = 1

    public let inboxPublicKey: [UInt8]
    public let linkID: [UInt8]
    /// The 32-byte bearer secret; the entry commits to `SHA-256(bearer)`.
    public let bearer: SecureBytes
    /// The 32-byte ChaCha20-Poly1305 key of the preview descriptor.
    public let previewKey: SecureBytes
    /// 1–8 `wss://` URLs, ascending by UTF-8 bytes.
    public let requestRelays: [String]

    /// Checks every field (`invalid_invite_code`).
    public init(inboxPublicKey: [UInt8], linkID: [UInt8], bearer: SecureBytes, previewKey: SecureBytes, requestRelays: [String]) throws {
        let code = MLSError.Code.invalidInviteCode
        try InviteLinkCodec.requireXOnly(inboxPublicKey, code, "inbox_pubkey")
        try InviteLinkCodec.require(linkID, count: 32, code, "link_id")
        guard bearer.count == 32, previewKey.count == 32 else { throw MLSError(code, "bearer and preview_key must be 32 bytes") }
        try InviteRelayURLList.validate(requestRelays, count: 1...InviteRelayURLList.maxURLs, code, "request_relays")
        self.inboxPublicKey = inboxPublicKey
        self.linkID = linkID
        self.bearer = bearer
        self.previewKey = previewKey
        self.requestRelays = requestRelays
    }

    /// `SHA-256(bearer)`, the entry's and the preview's `bearer_hash`.
    public var bearerHash: [UInt8] { bearer.withUnsafeBytes { SHA256.hash($0) } }

    /// The canonical binary bytes (they contain the secrets).
    public var encoded: [UInt8] {
        InviteLinkCodec.encode { w in
            w.writeUInt16(Self.version); w.writeBytes(inboxPublicKey); w.writeBytes(linkID)
            bearer.withUnsafeBytes { w.writeBytes($0) }
            previewKey.withUnsafeBytes { w.writeBytes($0) }
            InviteRelayURLList.write(requestRelays, to: &w)
        }
    }

    /// Reads the binary bytes exactly (`invalid_invite_code`).
    public init(decoding bytes: [UInt8]) throws {
        self = try InviteLinkCodec.decode(bytes, .invalidInviteCode, "invite code") { try Self(from: &$0) }
    }

    init(from r: inout TLSReader) throws {
        let version = try r.readUInt16()
        guard version == Self.version else { throw MLSError(.invalidInviteCode, "unknown invite code version \(version)") }
        let inbox = try InviteLinkCodec.read32(&r), linkID = try InviteLinkCodec.read32(&r)
        let bearer = SecureBytes(copying: try r.readBytes(32)), previewKey = SecureBytes(copying: try r.readBytes(32))
        let relays = try InviteRelayURLList.read(&r, count: 1...InviteRelayURLList.maxURLs, .invalidInviteCode, "request_relays")
        try self.init(inboxPublicKey: inbox, linkID: linkID, bearer: bearer, previewKey: previewKey, requestRelays: relays)
    }
}
