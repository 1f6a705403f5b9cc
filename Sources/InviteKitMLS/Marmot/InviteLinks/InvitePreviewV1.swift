import InviteKitCrypto

/// The preview plaintext of an invitation (`shared/marmot/v2/transports/nostr-invite-links.md`
/// "Preview descriptor"; PROTOCOL §5.14.4):
///
///     struct {
///       uint16 version;                 // 1
///       opaque inbox_pubkey[32]; opaque link_id[32]; opaque bearer_hash[32];
///       uint64 expires_at; uint8 approval_mode;
///       opaque name<1..256>; opaque description<0..4096>;   // UTF-8, never normalized
///       uint8 image_type;               // none 0, JPEG 1, PNG 2
///       opaque image<0..49152>;         // empty iff none
///     } InvitePreviewV1;
///
/// `preview_hash = SHA-256(encoded)` (``previewHash``); the encryption is in `InvitePreviewV1+Encryption.swift`.
/// Image bytes are checked for shape only; decoding and rendering bounds belong to the renderer.
public struct InvitePreviewV1: Hashable, Sendable {
    public static let version: UInt16 = 1
    public static let maxNameBytes = 256
    public static let maxDescriptionBytes = 4096
    public static let maxImageBytes = 49152

    /// `image_type`.
    public enum ImageType: UInt8, Sendable {
        case none = 0
        case jpeg = 1
        case png = 2
    }

    public let inboxPublicKey: [UInt8]
    public let linkID: [UInt8]
    public let bearerHash: [UInt8]
    public let expiresAt: UInt64
    public let approvalMode: InviteLinkV1.ApprovalMode
    /// UTF-8 bytes, compared as bytes.
    public let name: String
    public let description: String
    public let imageType: ImageType
    public let image: [UInt8]

    /// Checks every field (`invalid_invite_preview`).
    public init(inboxPublicKey: [UInt8], linkID: [UInt8], bearerHash: [UInt8], expiresAt: UInt64, approvalMode: InviteLinkV1.ApprovalMode,
                name: String, description: String, imageType: ImageType, image: [UInt8]) throws {
        let code = MLSError.Code.invalidInvitePreview
        try InviteLinkCodec.requireXOnly(inboxPublicKey, code, "inbox_pubkey")
        try InviteLinkCodec.require(linkID, count: 32, code, "link_id")
        try InviteLinkCodec.require(bearerHash, count: 32, code, "bearer_hash")
        try InviteLinkCodec.requireTime(expiresAt, allowZero: true, code, "expires_at")
        guard (1...Self.maxNameBytes).contains(name.utf8.count) else { throw MLSError(code, "name is \(name.utf8.count) bytes, outside 1..256") }
        guard description.utf8.count <= Self.maxDescriptionBytes else { throw MLSError(code, "description is above 4096 bytes") }
        guard image.count <= Self.maxImageBytes else { throw MLSError(code, "image is above \(Self.maxImageBytes) bytes") }
        guard (imageType == .none) == image.isEmpty else {
            throw MLSError(code, imageType == .none ? "image type none with image bytes" : "image type \(imageType) without image bytes")
        }
        self.inboxPublicKey = inboxPublicKey
        self.linkID = linkID
        self.bearerHash = bearerHash
        self.expiresAt = expiresAt
        self.approvalMode = approvalMode
        self.name = name
        self.description = description
        self.imageType = imageType
        self.image = image
    }

    public var encoded: [UInt8] {
        InviteLinkCodec.encode { w in
            w.writeUInt16(Self.version); w.writeBytes(inboxPublicKey); w.writeBytes(linkID); w.writeBytes(bearerHash)
            w.writeUInt64(expiresAt); w.writeUInt8(approvalMode.rawValue)
            w.writeOpaque(Array(name.utf8)); w.writeOpaque(Array(description.utf8))
            w.writeUInt8(imageType.rawValue); w.writeOpaque(image)
        }
    }

    /// `preview_hash = SHA-256(encoded InvitePreviewV1)`.
    public var previewHash: [UInt8] { SHA256.hash(encoded) }

    /// Reads exactly (`invalid_invite_preview`).
    public init(decoding bytes: [UInt8]) throws {
        let code = MLSError.Code.invalidInvitePreview
        self = try InviteLinkCodec.decode(bytes, code, "invite preview") { r in
            let version = try r.readUInt16()
            guard version == Self.version else { throw MLSError(code, "unknown preview version \(version)") }
            let inbox = try InviteLinkCodec.read32(&r), linkID = try InviteLinkCodec.read32(&r), bearerHash = try InviteLinkCodec.read32(&r)
            let expiresAt = try r.readUInt64()
            let rawMode = try r.readUInt8()
            guard let mode = InviteLinkV1.ApprovalMode(rawValue: rawMode) else { throw MLSError(code, "approval_mode \(rawMode) is not 0 or 1") }
            let name = try Self.text(&r, 1...Self.maxNameBytes, "name")
            let description = try Self.text(&r, 0...Self.maxDescriptionBytes, "description")
            let rawType = try r.readUInt8()
            guard let type = ImageType(rawValue: rawType) else { throw MLSError(code, "unknown image_type \(rawType)") }
            let image = try InviteLinkCodec.readOpaque(&r, 0...Self.maxImageBytes, code, "image")
            return try Self(inboxPublicKey: inbox, linkID: linkID, bearerHash: bearerHash, expiresAt: expiresAt, approvalMode: mode,
                            name: name, description: description, imageType: type, image: image)
        }
    }

    private static func text(_ r: inout TLSReader, _ bounds: ClosedRange<Int>, _ field: String) throws -> String {
        let bytes = try InviteLinkCodec.readOpaque(&r, bounds, .invalidInvitePreview, field)
        guard let s = String(validating: bytes, as: UTF8.self) else { throw MLSError(.invalidInvitePreview, "\(field) is not UTF-8") }
        return s
    }

    /// Whether this preview matches `code`: same inbox and id, and `bearer_hash = SHA-256(code.bearer)`
    /// (compared in constant time).
    public func matches(_ code: InviteCodeV1) -> Bool {
        inboxPublicKey == code.inboxPublicKey && linkID == code.linkID && ConstantTime.equals(bearerHash, code.bearerHash)
    }
}
