import InviteKitCrypto

/// The kind 461 unsigned Marmot app event payload carrying admin gift wraps inside MLS
/// (`shared/marmot/v2/foundation/invite-link-records.md` "Admin app batches"; PROTOCOL §5.14.8):
///
///     struct { opaque recipient_account[32]; opaque transport_envelope<1..90000>; } InviteAdminEnvelopeV1;
///     struct { InviteAdminEnvelopeV1 envelopes<1..262144>; } InviteAdminBatchV1;
///
/// One to sixteen envelopes, strictly ascending by recipient account (so recipients are unique).
/// Each envelope is opaque here (the Nostr binding's RFC 8785 gift-wrap JSON).
public struct InviteAdminBatchV1: Hashable, Sendable {
    public static let maxRecipients = 16
    public static let maxEnvelopeBytes = 90000
    public static let maxVectorBytes = 262_144

    /// One recipient's copy.
    public struct Envelope: Hashable, Sendable {
        public let recipientAccount: [UInt8]
        public let transportEnvelope: [UInt8]

        /// Checks a valid x-only account and the envelope bound (`invalid_invite_record`).
        public init(recipientAccount: [UInt8], transportEnvelope: [UInt8]) throws {
            try InviteLinkCodec.requireXOnly(recipientAccount, .invalidInviteRecord, "recipient_account")
            guard (1...InviteAdminBatchV1.maxEnvelopeBytes).contains(transportEnvelope.count) else {
                throw MLSError(.invalidInviteRecord, "transport_envelope is \(transportEnvelope.count) bytes, outside 1..\(InviteAdminBatchV1.maxEnvelopeBytes)")
            }
            self.recipientAccount = recipientAccount
            self.transportEnvelope = transportEnvelope
        }

        /// Its encoded size inside the batch vector.
        var encodedCount: Int {
            let n = transportEnvelope.count
            return 32 + n + (n < 64 ? 1 : n < 16384 ? 2 : 4)
        }
    }

    public let envelopes: [Envelope]

    /// Sorts by recipient; refuses zero or more than sixteen envelopes, a repeated recipient, or a
    /// vector above 262144 bytes (the producer splits) (`invalid_invite_record`).
    public init(envelopes: [Envelope]) throws {
        let sorted = envelopes.sorted { $0.recipientAccount.lexicographicallyPrecedes($1.recipientAccount) }
        try Self.validate(sorted)
        self.envelopes = sorted
    }

    private static func validate(_ envelopes: [Envelope]) throws {
        let code = MLSError.Code.invalidInviteRecord
        guard (1...maxRecipients).contains(envelopes.count) else { throw MLSError(code, "\(envelopes.count) recipients, outside 1..\(maxRecipients)") }
        try InviteLinkCodec.requireSortedUnique(envelopes.map(\.recipientAccount), code, "recipients")
        let total = envelopes.reduce(0) { $0 + $1.encodedCount }
        guard total <= maxVectorBytes else { throw MLSError(code, "envelopes are \(total) bytes, above \(maxVectorBytes)") }
    }

    public var encoded: [UInt8] {
        InviteLinkCodec.encode { w in
            w.writeVector { inner in for e in envelopes { inner.writeBytes(e.recipientAccount); inner.writeOpaque(e.transportEnvelope) } }
        }
    }

    /// Reads exactly (`invalid_invite_record`).
    public init(decoding bytes: [UInt8]) throws {
        let code = MLSError.Code.invalidInviteRecord
        let envelopes = try InviteLinkCodec.decode(bytes, code, "admin batch") { r -> [Envelope] in
            let body = try InviteLinkCodec.readOpaque(&r, 1...Self.maxVectorBytes, code, "envelopes")
            var sub = TLSReader(body)
            var out: [Envelope] = []
            while !sub.isAtEnd {
                guard out.count < Self.maxRecipients else { throw MLSError(code, "more than \(Self.maxRecipients) recipients") }
                let account = try InviteLinkCodec.read32(&sub)
                let envelope = try InviteLinkCodec.readOpaque(&sub, 1...Self.maxEnvelopeBytes, code, "transport_envelope")
                out.append(try Envelope(recipientAccount: account, transportEnvelope: envelope))
            }
            return out
        }
        try Self.validate(envelopes)
        self.envelopes = envelopes
    }

    /// The app event content: padded base64 of ``encoded``.
    public var content: String { InviteLinkCodec.base64(encoded) }

    /// Reads app event content (canonical padded base64, length bounded first).
    public init(content: String) throws {
        try self.init(decoding: InviteLinkCodec.fromBase64(content, maxDecoded: 4 + Self.maxVectorBytes, .invalidInviteRecord, "admin batch content"))
    }
}
