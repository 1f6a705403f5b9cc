import InviteKitCrypto

/// An admin's attributed claim about a request (`shared/marmot/v2/foundation/invite-link-records.md`
/// "Status"; PROTOCOL §5.14.6):
///
///     struct {
///       InviteRequestContextV1 context; opaque request_hash[32];
///       uint8 outcome;                    // observed 0, declined 1, invited 2, retired 3
///       opaque commit_hash[32]; opaque welcome_hash[32];   // both zero unless invited; both nonzero if invited
///     } InviteStatusV1;                   // 267 bytes
public struct InviteStatusV1: Hashable, Sendable {
    public static let byteCount = InviteRequestContextV1.byteCount + 32 + 1 + 64

    /// `outcome`.
    public enum Outcome: UInt8, Sendable {
        case observed = 0
        case declined = 1
        case invited = 2
        case retired = 3
    }

    public let context: InviteRequestContextV1
    public let requestHash: [UInt8]
    public let outcome: Outcome
    /// SHA-256 of the serialized Commit `MLSMessage` (invited), else zero.
    public let commitHash: [UInt8]
    /// SHA-256 of the serialized Welcome `MLSMessage` (invited), else zero.
    public let welcomeHash: [UInt8]

    /// Checks the outcome's hash rule (`invalid_invite_record`).
    public init(context: InviteRequestContextV1, requestHash: [UInt8], outcome: Outcome, commitHash: [UInt8] = [UInt8](repeating: 0, count: 32),
                welcomeHash: [UInt8] = [UInt8](repeating: 0, count: 32)) throws {
        let code = MLSError.Code.invalidInviteRecord
        try InviteLinkCodec.require(requestHash, count: 32, code, "request_hash")
        try InviteLinkCodec.require(commitHash, count: 32, code, "commit_hash")
        try InviteLinkCodec.require(welcomeHash, count: 32, code, "welcome_hash")
        let commitZero = commitHash.allSatisfy { $0 == 0 }, welcomeZero = welcomeHash.allSatisfy { $0 == 0 }
        if outcome == .invited {
            guard !commitZero, !welcomeZero else { throw MLSError(code, "an invited status needs nonzero commit and welcome hashes") }
        } else {
            guard commitZero, welcomeZero else { throw MLSError(code, "a \(outcome) status must have zero commit and welcome hashes") }
        }
        self.context = context
        self.requestHash = requestHash
        self.outcome = outcome
        self.commitHash = commitHash
        self.welcomeHash = welcomeHash
    }

    public var encoded: [UInt8] {
        InviteLinkCodec.encode { w in
            context.encode(to: &w); w.writeBytes(requestHash); w.writeUInt8(outcome.rawValue); w.writeBytes(commitHash); w.writeBytes(welcomeHash)
        }
    }

    /// Reads exactly; an unknown outcome is invalid (`invalid_invite_record`).
    public init(decoding bytes: [UInt8]) throws {
        self = try InviteLinkCodec.decode(bytes, .invalidInviteRecord, "status") { try Self(from: &$0) }
    }

    init(from r: inout TLSReader) throws {
        let context = try InviteRequestContextV1(from: &r)
        let requestHash = try InviteLinkCodec.read32(&r)
        let raw = try r.readUInt8()
        guard let outcome = Outcome(rawValue: raw) else { throw MLSError(.invalidInviteRecord, "unknown status outcome \(raw)") }
        try self.init(context: context, requestHash: requestHash, outcome: outcome, commitHash: try InviteLinkCodec.read32(&r),
                      welcomeHash: try InviteLinkCodec.read32(&r))
    }

    /// The kind 460 rumor content: padded base64 of ``encoded``.
    public var content: String { InviteLinkCodec.base64(encoded) }

    /// Reads kind 460 rumor content (canonical padded base64, length bounded first).
    public init(content: String) throws {
        try self.init(decoding: InviteLinkCodec.fromBase64(content, maxDecoded: Self.byteCount, .invalidInviteRecord, "status content"))
    }
}
