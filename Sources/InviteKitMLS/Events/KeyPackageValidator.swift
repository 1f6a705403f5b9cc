import InviteKitCrypto
import InviteKitNostr

/// Validation of inbound KeyPackage events (Marmot MIP-00; PROTOCOL.md §4.4) and the selection rule.
public enum KeyPackageValidator {
    /// Checks, in order: kind 30443 (or legacy 443); the event id and signature; `encoding`;
    /// the content decodes to a KeyPackage; `mls_protocol_version` 1.0; cipher suite 0x0001 in both
    /// the tag and the KeyPackage; the `d` tag is 64 hex (kind 30443); the `i` tag equals the
    /// computed KeyPackageRef (required on 30443, checked on 443 when present); the BasicCredential
    /// identity equals the event pubkey; RFC 9420 §10.1 checks and both signatures
    /// (``KeyPackage/verify()``); the Lifetime contains `now` within `skew` seconds either way
    /// (MDK never checked Lifetime; we do).
    public static func validate(_ event: NostrEvent, now: Int64 = UnixTime.now(),
                                skew: UInt64 = KeyPackageEvent.defaultClockSkew) throws -> ValidatedKeyPackage {
        guard event.kind == KeyPackageEvent.kind || event.kind == KeyPackageEvent.legacyKind else {
            throw MLSError(.invalidEvent, "kind \(event.kind) is not a KeyPackage event")
        }
        do { try event.verify() } catch { throw MLSError(.invalidSignature, "event: \(error)") }
        let bytes: [UInt8]
        switch event.firstTagValue("encoding") {
        case "base64":
            guard let b = Base64.decode(event.content) else { throw MLSError(.invalidEvent, "content is not base64") }
            bytes = b
        case nil:
            // Legacy events carried hex and had no encoding tag.
            guard let b = Hex.decode(event.content) ?? Base64.decode(event.content) else {
                throw MLSError(.invalidEvent, "content is neither hex nor base64")
            }
            bytes = b
        case let other?:
            throw MLSError(.invalidEvent, "unsupported encoding \(other)")
        }
        let kp: KeyPackage
        if let bare = try? KeyPackage(tlsSerialized: bytes) {
            kp = bare
        } else if let msg = try? MLSMessage(tlsSerialized: bytes) {
            kp = msg.keyPackage
        } else {
            throw MLSError(.invalidEvent, "content is not a TLS-serialized KeyPackage")
        }
        if let v = event.firstTagValue("mls_protocol_version"), v != "1.0" {
            throw MLSError(.invalidEvent, "mls_protocol_version \(v)")
        }
        if let cs = event.firstTagValue("mls_ciphersuite"), cs.lowercased() != "0x0001" {
            throw MLSError(.unsupportedCipherSuite, "mls_ciphersuite tag \(cs)")
        }
        guard kp.cipherSuite == .x25519Aes128GcmSha256Ed25519 else {
            throw MLSError(.unsupportedCipherSuite, "KeyPackage cipher suite \(kp.cipherSuite)")
        }
        if event.kind == KeyPackageEvent.kind {
            guard let d = event.firstTagValue("d"), d.utf8.count == 64, Hex.decode(d) != nil else {
                throw MLSError(.invalidEvent, "d tag must be 64 hex characters")
            }
        }
        let ref = kp.reference
        if let i = event.firstTagValue("i") {
            guard let given = Hex.decode(i), given == ref else { throw MLSError(.invalidEvent, "i tag is not the KeyPackageRef") }
        } else if event.kind == KeyPackageEvent.kind {
            throw MLSError(.invalidEvent, "missing i tag")
        }
        let cred = kp.leafNode.credential
        guard cred.isBasic, cred.identity.count == 32, Hex.encode(cred.identity) == event.pubkey else {
            throw MLSError(.credentialMismatch, "credential identity is not the event pubkey")
        }
        try kp.verify()
        guard let lifetime = kp.leafNode.lifetime else { throw MLSError(.invalidValue, "no lifetime") }
        let t = UInt64(max(0, now))
        guard lifetime.contains(t, skew: skew) else {
            throw MLSError(.expired, t < lifetime.notBefore ? "not yet valid" : "expired")
        }
        return ValidatedKeyPackage(event: event, keyPackage: kp, reference: ref)
    }

    /// Picks the KeyPackage to invite with from one user's events: invalid ones are dropped (and
    /// reported), then non-last-resort is preferred, then the newest `created_at`, then the smallest
    /// event id (PROTOCOL.md §4.4).
    public static func select(_ events: [NostrEvent], now: Int64 = UnixTime.now(),
                              skew: UInt64 = KeyPackageEvent.defaultClockSkew) -> (chosen: ValidatedKeyPackage?, valid: [ValidatedKeyPackage], rejected: [(event: NostrEvent, error: MLSError)]) {
        var valid: [ValidatedKeyPackage] = []
        var rejected: [(event: NostrEvent, error: MLSError)] = []
        for e in events {
            do { valid.append(try validate(e, now: now, skew: skew)) } catch {
                rejected.append((e, error as? MLSError ?? MLSError(.invalidEvent, "\(error)")))
            }
        }
        let chosen = valid.min { a, b in
            if a.isLastResort != b.isLastResort { return !a.isLastResort }
            if a.event.createdAt != b.event.createdAt { return a.event.createdAt > b.event.createdAt }
            return a.event.id < b.event.id
        }
        return (chosen, valid, rejected)
    }
}
