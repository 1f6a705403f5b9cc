import InviteKitCrypto

/// A device-signed withdrawal closing a request context (`shared/marmot/v2/foundation/invite-link-records.md`
/// "Withdrawal"; PROTOCOL §5.14.5):
///
///     struct { InviteRequestContextV1 context; } InviteWithdrawalTBSV1;
///     struct { InviteWithdrawalTBSV1 tbs; opaque consent_signature[64]; } InviteWithdrawalV1;   // 234 bytes
///
/// Signed with label `withdrawal` over the encoded TBS (the context bytes) by the original
/// consent key.
public struct InviteWithdrawalV1: Hashable, Sendable {
    public static let byteCount = InviteRequestContextV1.byteCount + 64

    public let context: InviteRequestContextV1
    public let consentSignature: [UInt8]

    public init(context: InviteRequestContextV1, consentSignature: [UInt8]) throws {
        try InviteLinkCodec.require(consentSignature, count: 64, .invalidInviteRecord, "consent_signature")
        self.context = context
        self.consentSignature = consentSignature
    }

    /// Signs `context` with `consentKey`, whose public key must be the context's consent key.
    public init(signing context: InviteRequestContextV1, consentKey: Ed25519.PrivateKey) throws {
        guard consentKey.publicKey == context.consentKey else {
            throw MLSError(.invalidInviteRecord, "the signing key is not the context's consent_key")
        }
        try self.init(context: context, consentSignature: InviteConsentSignature.sign(.withdrawal, content: context.encoded, key: consentKey))
    }

    public var encoded: [UInt8] { context.encoded + consentSignature }

    /// Reads exactly (`invalid_invite_record`).
    public init(decoding bytes: [UInt8]) throws {
        self = try InviteLinkCodec.decode(bytes, .invalidInviteRecord, "withdrawal") { try Self(from: &$0) }
    }

    init(from r: inout TLSReader) throws {
        let context = try InviteRequestContextV1(from: &r)
        try self.init(context: context, consentSignature: try r.readBytes(64))
    }

    /// SafeVerifyWithLabel with label `withdrawal` under `context.consent_key` (`invalid_signature`).
    public func verifyConsent() throws {
        try InviteConsentSignature.verify(.withdrawal, content: context.encoded, signature: consentSignature, consentKey: context.consentKey)
    }
}
