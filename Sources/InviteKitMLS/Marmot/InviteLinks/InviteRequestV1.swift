import InviteKitCrypto

/// A device-signed join request (`shared/marmot/v2/foundation/invite-link-records.md`
/// "Encoding and scope"; PROTOCOL §5.14.5):
///
///     struct { InviteRequestTBSV1 tbs; opaque consent_signature[64]; } InviteRequestV1;
///
/// `request_hash = SHA-256(encoded)`. The signature is ``InviteConsentSignature`` with label
/// `request` over the encoded TBS, by `context.consent_key`. Decoding checks structure only;
/// ``verifyConsent()`` checks the signature and ``verifyRefresh(of:)`` the chain.
public struct InviteRequestV1: Sendable {
    public let tbs: InviteRequestTBSV1
    public let consentSignature: [UInt8]

    public init(tbs: InviteRequestTBSV1, consentSignature: [UInt8]) throws {
        try InviteLinkCodec.require(consentSignature, count: 64, .invalidInviteRecord, "consent_signature")
        self.tbs = tbs
        self.consentSignature = consentSignature
    }

    /// Signs `tbs` with `consentKey`, whose public key must be the context's consent key.
    public init(signing tbs: InviteRequestTBSV1, consentKey: Ed25519.PrivateKey) throws {
        guard consentKey.publicKey == tbs.context.consentKey else {
            throw MLSError(.invalidInviteRecord, "the signing key is not the context's consent_key")
        }
        try self.init(tbs: tbs, consentSignature: InviteConsentSignature.sign(.request, content: tbs.encoded, key: consentKey))
    }

    public var encoded: [UInt8] { InviteLinkCodec.encode { encode(to: &$0) } }

    func encode(to w: inout TLSWriter) {
        tbs.encode(to: &w)
        w.writeBytes(consentSignature)
    }

    /// `request_hash = SHA-256(encoded InviteRequestV1)`.
    public var requestHash: [UInt8] { SHA256.hash(encoded) }

    /// Reads exactly (`invalid_invite_record`).
    public init(decoding bytes: [UInt8]) throws {
        self = try InviteLinkCodec.decode(bytes, .invalidInviteRecord, "request") { try Self(from: &$0) }
    }

    init(from r: inout TLSReader) throws {
        let tbs = try InviteRequestTBSV1(from: &r)
        try self.init(tbs: tbs, consentSignature: try r.readBytes(64))
    }

    /// SafeVerifyWithLabel under `context.consent_key` (`invalid_signature`).
    public func verifyConsent() throws {
        try InviteConsentSignature.verify(.request, content: tbs.encoded, signature: consentSignature, consentKey: tbs.context.consentKey)
    }

    /// Checks that this request is a valid refresh of `previous` (`invalid_invite_record`, or
    /// `invalid_signature`): revision exactly one higher, `previous_request_hash` equal to
    /// `previous.requestHash`, the same context and bearer (constant-time), and both signatures
    /// valid under the original consent key. Ancestor completeness and conflicting branches
    /// are the feature's bookkeeping, not this check's.
    public func verifyRefresh(of previous: InviteRequestV1) throws {
        let code = MLSError.Code.invalidInviteRecord
        guard tbs.revision == previous.tbs.revision + 1 else {
            throw MLSError(code, "revision \(tbs.revision) does not follow revision \(previous.tbs.revision)")
        }
        guard tbs.previousRequestHash == previous.requestHash else { throw MLSError(code, "previous_request_hash does not name the preceding request") }
        guard tbs.context == previous.tbs.context else { throw MLSError(code, "a refresh changed the request context") }
        let sameBearer = tbs.bearer.constantTimeEquals(previous.tbs.bearer)
        guard sameBearer else { throw MLSError(code, "a refresh changed the bearer") }
        try previous.verifyConsent()
        try verifyConsent()
    }
}
