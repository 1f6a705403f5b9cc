import InviteKitCrypto

/// A private admin-control record inside recipient gift wraps (`shared/marmot/v2/foundation/invite-link-records.md`
/// "Private admin records"; PROTOCOL §5.14.8):
///
///     struct {
///       opaque group_id<1..255>; uint64 source_epoch; opaque link_id[32];
///       uint8 action;                 // grant 0, forward_request 1, withdrawal 2, declined 3, invited 4
///       opaque body<1..24576>;        // the action's exact encoding, no trailing bytes
///     } InviteAdminRecordV1;
///
/// Bodies: grant = `InviteLinkV1 || inbox private key[32] || opaque transport_code<1..8192>` (a
/// canonical ``InviteCodeV1``); forward_request = `InviteRequestV1 || opaque publication<1..12288>`;
/// withdrawal = `InviteWithdrawalV1`; declined / invited = an `InviteStatusV1` of that outcome.
/// Decoding checks each body's local bindings (ids, inbox, bearer commitment); sender, source
/// epoch and authority are the transport's and the feature's.
public struct InviteAdminRecordV1: Sendable {
    public static let maxGroupIDBytes = 255
    public static let maxBodyBytes = 24576
    public static let maxTransportCodeBytes = 8192
    public static let maxPublicationBytes = 12288
    /// The largest encoding: group id, epoch, link id, action, body.
    public static let maxEncodedBytes = 2 + maxGroupIDBytes + 8 + 32 + 1 + 4 + maxBodyBytes

    /// The action with its decoded body.
    public enum Action: Sendable {
        /// The generation's entry, its inbox private key and the complete code.
        case grant(entry: InviteLinkV1, inboxPrivateKey: SecureBytes, code: InviteCodeV1)
        /// A requester's record with the transport's publication evidence (RFC 8785 JSON of the
        /// signed kind 30443 event; carried as bytes here).
        case forwardRequest(InviteRequestV1, publication: [UInt8])
        case withdrawal(InviteWithdrawalV1)
        case declined(InviteStatusV1)
        case invited(InviteStatusV1)

        public var rawValue: UInt8 {
            switch self {
            case .grant: return 0
            case .forwardRequest: return 1
            case .withdrawal: return 2
            case .declined: return 3
            case .invited: return 4
            }
        }
    }

    public let groupID: [UInt8]
    public let sourceEpoch: UInt64
    public let linkID: [UInt8]
    public let action: Action

    /// Checks the fields and the body's bindings to `linkID` (`invalid_invite_record`).
    public init(groupID: [UInt8], sourceEpoch: UInt64, linkID: [UInt8], action: Action) throws {
        let code = MLSError.Code.invalidInviteRecord
        guard (1...Self.maxGroupIDBytes).contains(groupID.count) else { throw MLSError(code, "group_id is \(groupID.count) bytes, outside 1..255") }
        try InviteLinkCodec.require(linkID, count: 32, code, "link_id")
        try Self.check(action, linkID: linkID)
        let body = Self.body(action)
        guard (1...Self.maxBodyBytes).contains(body.count) else { throw MLSError(code, "body is \(body.count) bytes, above \(Self.maxBodyBytes)") }
        self.groupID = groupID
        self.sourceEpoch = sourceEpoch
        self.linkID = linkID
        self.action = action
    }

    private static func check(_ action: Action, linkID: [UInt8]) throws {
        let code = MLSError.Code.invalidInviteRecord
        switch action {
        case .grant(let entry, let key, let inviteCode):
            guard entry.linkID == linkID else { throw MLSError(code, "grant entry is for another link id") }
            guard key.count == 32, let derived = try? Secp256k1.PrivateKey(rawRepresentation: key) else {
                throw MLSError(code, "grant inbox private key is not a valid secp256k1 scalar")
            }
            guard derived.publicKey.rawRepresentation == entry.inboxPublicKey else { throw MLSError(code, "grant private key does not derive the entry's inbox") }
            guard inviteCode.linkID == entry.linkID, inviteCode.inboxPublicKey == entry.inboxPublicKey else {
                throw MLSError(code, "grant code names another link id or inbox than its entry")
            }
            guard ConstantTime.equals(inviteCode.bearerHash, entry.bearerHash) else { throw MLSError(code, "grant code's bearer does not hash to the entry's bearer_hash") }
            guard inviteCode.encoded.count <= maxTransportCodeBytes else { throw MLSError(code, "transport_code is above \(maxTransportCodeBytes) bytes") }
        case .forwardRequest(let request, let publication):
            guard request.tbs.context.linkID == linkID else { throw MLSError(code, "forwarded request is for another link id") }
            guard (1...maxPublicationBytes).contains(publication.count) else {
                throw MLSError(code, "publication evidence is \(publication.count) bytes, outside 1..\(maxPublicationBytes)")
            }
        case .withdrawal(let w):
            guard w.context.linkID == linkID else { throw MLSError(code, "withdrawal is for another link id") }
        case .declined(let s):
            guard s.outcome == .declined else { throw MLSError(code, "a declined record carries a \(s.outcome) status") }
            guard s.context.linkID == linkID else { throw MLSError(code, "status is for another link id") }
        case .invited(let s):
            guard s.outcome == .invited else { throw MLSError(code, "an invited record carries a \(s.outcome) status") }
            guard s.context.linkID == linkID else { throw MLSError(code, "status is for another link id") }
        }
    }

    private static func body(_ action: Action) -> [UInt8] {
        switch action {
        case .grant(let entry, let key, let code):
            return InviteLinkCodec.encode { w in
                entry.encode(to: &w)
                key.withUnsafeBytes { w.writeBytes($0) }
                w.writeOpaque(code.encoded)
            }
        case .forwardRequest(let request, let publication):
            return InviteLinkCodec.encode { w in request.encode(to: &w); w.writeOpaque(publication) }
        case .withdrawal(let w): return w.encoded
        case .declined(let s), .invited(let s): return s.encoded
        }
    }

    /// The record bytes (a grant's contain its secrets).
    public var encoded: [UInt8] {
        InviteLinkCodec.encode { w in
            w.writeOpaque(groupID); w.writeUInt64(sourceEpoch); w.writeBytes(linkID); w.writeUInt8(action.rawValue); w.writeOpaque(Self.body(action))
        }
    }

    /// Reads exactly; unknown actions fail closed (`invalid_invite_record`).
    public init(decoding bytes: [UInt8]) throws {
        let code = MLSError.Code.invalidInviteRecord
        self = try InviteLinkCodec.decode(bytes, code, "admin record") { r in
            let groupID = try InviteLinkCodec.readOpaque(&r, 1...Self.maxGroupIDBytes, code, "group_id")
            let epoch = try r.readUInt64()
            let linkID = try InviteLinkCodec.read32(&r)
            let raw = try r.readUInt8()
            let body = try InviteLinkCodec.readOpaque(&r, 1...Self.maxBodyBytes, code, "body")
            let action = try Self.action(raw, body)
            return try Self(groupID: groupID, sourceEpoch: epoch, linkID: linkID, action: action)
        }
    }

    private static func action(_ raw: UInt8, _ body: [UInt8]) throws -> Action {
        let code = MLSError.Code.invalidInviteRecord
        switch raw {
        case 0:
            return try InviteLinkCodec.decode(body, code, "grant body") { r in
                let entry = try InviteLinkV1(from: &r)
                let key = SecureBytes(copying: try r.readBytes(32))
                let codeBytes = try InviteLinkCodec.readOpaque(&r, 1...maxTransportCodeBytes, code, "transport_code")
                return .grant(entry: entry, inboxPrivateKey: key, code: try InviteCodeV1(decoding: codeBytes))
            }
        case 1:
            return try InviteLinkCodec.decode(body, code, "forward_request body") { r in
                let request = try InviteRequestV1(from: &r)
                let publication = try InviteLinkCodec.readOpaque(&r, 1...maxPublicationBytes, code, "publication")
                return .forwardRequest(request, publication: publication)
            }
        case 2: return .withdrawal(try InviteWithdrawalV1(decoding: body))
        case 3: return .declined(try InviteStatusV1(decoding: body))
        case 4: return .invited(try InviteStatusV1(decoding: body))
        default: throw MLSError(code, "unknown admin action \(raw)")
        }
    }

    /// The kind 461 rumor content: padded base64 of ``encoded``.
    public var content: String { InviteLinkCodec.base64(encoded) }

    /// Reads kind 461 rumor content (canonical padded base64, length bounded first).
    public init(content: String) throws {
        try self.init(decoding: InviteLinkCodec.fromBase64(content, maxDecoded: Self.maxEncodedBytes, .invalidInviteRecord, "admin record content"))
    }
}
