/// The kind 459 rumor payload (`shared/marmot/v2/transports/nostr-invite-links.md`
/// "Request delivery and package evidence"; PROTOCOL §5.14.7):
///
///     struct {
///       uint8 operation;            // request 0, withdrawal 1
///       opaque record<1..16384>;    // exactly an InviteRequestV1 or an InviteWithdrawalV1
///     } NostrInviteRequestV1;
///
/// The rumor content is padded base64 of these bytes.
public struct NostrInviteRequestV1: Sendable {
    public static let maxRecordBytes = 16384
    /// The largest encoding: operation, a 4-byte length, the record.
    public static let maxEncodedBytes = 1 + 4 + maxRecordBytes

    /// `operation` with its record.
    public enum Operation: Sendable {
        case request(InviteRequestV1)
        case withdrawal(InviteWithdrawalV1)

        var rawValue: UInt8 {
            switch self {
            case .request: return 0
            case .withdrawal: return 1
            }
        }
    }

    public let operation: Operation

    public init(_ operation: Operation) throws {
        let record = Self.record(operation)
        guard (1...Self.maxRecordBytes).contains(record.count) else {
            throw MLSError(.invalidInviteRecord, "record is \(record.count) bytes, above \(Self.maxRecordBytes)")
        }
        self.operation = operation
    }

    private static func record(_ operation: Operation) -> [UInt8] {
        switch operation {
        case .request(let r): return r.encoded
        case .withdrawal(let w): return w.encoded
        }
    }

    public var encoded: [UInt8] {
        InviteLinkCodec.encode { w in w.writeUInt8(operation.rawValue); w.writeOpaque(Self.record(operation)) }
    }

    /// Reads exactly; an unknown operation is invalid (`invalid_invite_record`).
    public init(decoding bytes: [UInt8]) throws {
        let code = MLSError.Code.invalidInviteRecord
        self = try InviteLinkCodec.decode(bytes, code, "nostr invite request") { r in
            let raw = try r.readUInt8()
            let record = try InviteLinkCodec.readOpaque(&r, 1...Self.maxRecordBytes, code, "record")
            switch raw {
            case 0: return try Self(.request(try InviteRequestV1(decoding: record)))
            case 1: return try Self(.withdrawal(try InviteWithdrawalV1(decoding: record)))
            default: throw MLSError(code, "unknown operation \(raw)")
            }
        }
    }

    /// The kind 459 rumor content.
    public var content: String { InviteLinkCodec.base64(encoded) }

    /// Reads kind 459 rumor content (canonical padded base64, length bounded first).
    public init(content: String) throws {
        try self.init(decoding: InviteLinkCodec.fromBase64(content, maxDecoded: Self.maxEncodedBytes, .invalidInviteRecord, "request content"))
    }
}
