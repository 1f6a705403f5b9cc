import InviteKitCrypto
import InviteKitNostr

/// Validation of inbound KeyPackage events (Marmot MIP-00; PROTOCOL.md §4.4) and the selection rule.
public enum KeyPackageValidator {
    /// Checks a KeyPackage event of either profile (PROTOCOL.md §4.4, §5.12.3). Common to both, in
    /// order: kind 30443 (or legacy 443, MIP only); the event id and signature; strict padded
    /// base64 content holding a KeyPackage (bare or as an MLSMessage); `mls_protocol_version` 1.0
    /// and `mls_ciphersuite` 0x0001, suite 0x0001 in the KeyPackage; the `d` tag 64 hex (kind
    /// 30443); exactly one `i` tag (required on 30443) equal to the computed KeyPackageRef; the
    /// BasicCredential identity equals the event pubkey; RFC 9420 §10.1 checks and both signatures
    /// (``KeyPackage/verify()``); extension types unique in the KeyPackage and in its leaf (RFC
    /// 9420 §13.4) and listed in the leaf capabilities unless default (§7.2); X25519 `init_key` and
    /// `encryption_key` not low-order points; the Lifetime contains `now` within `skew` seconds
    /// either way (`not_yet_valid` / `expired`, naming the bound and the distance). OpenMLS (inside
    /// MDK) checks `not_before < now < not_after` with no skew.
    ///
    /// The leaf decides the profile. MIP (MDK 0.8.0): an `encoding` tag saying `base64`;
    /// `mls_extensions` listing 0x000a and 0xf2ee; `mls_proposals` exactly `0x000a` (required on
    /// 30443); one `relays` tag with at least one relay URL (`invalid_relays`). Current (MDK
    /// v0.9.14 `marmot-app/src/key_package_records.rs:248-335`): no `encoding` tag; each singleton
    /// and list tag once; `mls_extensions`, `mls_proposals` and `app_components` equal, as sets,
    /// the leaf's capabilities and private-range supported components; the account identity proof
    /// (``MarmotLeafRule``); no `0x8009` in the KeyPackage's own dictionary; a validity range of at
    /// most ``KeyPackageEvent/currentMaxRange``.
    public static func validate(_ event: NostrEvent, now: Int64 = UnixTime.now(),
                                skew: UInt64 = KeyPackageEvent.defaultClockSkew) throws -> ValidatedKeyPackage {
        guard event.kind == KeyPackageEvent.kind || event.kind == KeyPackageEvent.legacyKind else {
            throw MLSError(.invalidEvent, "kind \(event.kind) is not a KeyPackage event")
        }
        do { try event.verify() } catch { throw MLSError(.invalidSignature, "event: \(error)") }
        guard let bytes = Base64.decode(event.content) else { throw MLSError(.invalidEvent, "content is not padded base64") }
        let kp: KeyPackage
        if let bare = try? KeyPackage(tlsSerialized: bytes) {
            kp = bare
        } else if let msg = try? MLSMessage(tlsSerialized: bytes), let wrapped = try? msg.keyPackage {
            kp = wrapped
        } else {
            throw MLSError(.invalidEvent, "content is not a TLS-serialized KeyPackage")
        }
        let profile = kp.profile
        switch profile {
        case .mip: try checkMIPTags(event)
        case .current: try checkCurrentTags(event, kp)
        }
        guard let v = event.firstTagValue("mls_protocol_version") else { throw MLSError(.invalidEvent, "missing mls_protocol_version tag") }
        guard v == "1.0" else { throw MLSError(.invalidEvent, "mls_protocol_version \(v)") }
        guard let cs = event.firstTagValue("mls_ciphersuite") else { throw MLSError(.invalidEvent, "missing mls_ciphersuite tag") }
        guard cs.lowercased() == "0x0001" else { throw MLSError(.unsupportedCipherSuite, "mls_ciphersuite tag \(cs)") }
        guard kp.cipherSuite == .x25519Aes128GcmSha256Ed25519 else {
            throw MLSError(.unsupportedCipherSuite, "KeyPackage cipher suite \(kp.cipherSuite)")
        }
        if event.kind == KeyPackageEvent.kind {
            guard let d = event.firstTagValue("d"), d.utf8.count == 64, Hex.decode(d) != nil else {
                throw MLSError(.invalidEvent, "d tag must be 64 hex characters")
            }
        }
        let ref = kp.reference
        let iTags = event.tags.filter { $0.first == "i" }
        guard iTags.count <= 1 else { throw MLSError(.invalidEvent, "\(iTags.count) i tags; a KeyPackage has one KeyPackageRef") }
        if let i = iTags.first {
            guard i.count == 2 else { throw MLSError(.invalidEvent, "i tag must hold exactly one value") }
            guard let given = Hex.decode(i[1]), given == ref else { throw MLSError(.invalidEvent, "i tag is not the KeyPackageRef") }
        } else if event.kind == KeyPackageEvent.kind {
            throw MLSError(.invalidEvent, "missing i tag")
        }
        let cred = kp.leafNode.credential
        guard cred.isBasic, cred.identity.count == 32, Hex.encode(cred.identity) == event.pubkey else {
            throw MLSError(.credentialMismatch, "credential identity is not the event pubkey")
        }
        try kp.verify()
        try checkUniqueExtensions(kp.extensions.map(\.extensionType), "KeyPackage")
        try checkUniqueExtensions(kp.leafNode.extensions.map(\.extensionType), "LeafNode")
        // RFC 9420 §7.2 (and OpenMLS): a non-default extension in use must be in the capabilities.
        for t in (kp.extensions + kp.leafNode.extensions).map(\.extensionType) where !(0x0001...0x0005).contains(t) {
            guard kp.leafNode.capabilities.extensions.contains(t) else {
                throw MLSError(.invalidValue, "extension type \(t) is used but not in the leaf capabilities")
            }
        }
        guard isUsableX25519(kp.initKey) else { throw MLSError(.invalidKey, "init_key is a low-order X25519 point") }
        guard isUsableX25519(kp.leafNode.encryptionKey) else { throw MLSError(.invalidKey, "encryption_key is a low-order X25519 point") }
        guard let lifetime = kp.leafNode.lifetime else { throw MLSError(.invalidValue, "no lifetime") }
        guard now >= 0 else { throw MLSError(.invalidValue, "now \(now) is before the Unix epoch") }
        if profile == .current {
            try MarmotLeafRule.check(kp.leafNode, profile: .current, suite: kp.cipherSuite)
            if let own = try AppDataDictionary(extensions: kp.extensions), own[ComponentID.accountIdentityProof] != nil {
                throw MLSError(.invalidIdentityProof, "0x8009 in the KeyPackage's own dictionary")
            }
            guard lifetime.notAfter >= lifetime.notBefore, lifetime.notAfter - lifetime.notBefore <= KeyPackageEvent.currentMaxRange else {
                throw MLSError(.invalidValue, "KeyPackage validity range is above \(KeyPackageEvent.currentMaxRange) s")
            }
        }
        try checkLifetime(lifetime, now: UInt64(now), skew: skew)
        return ValidatedKeyPackage(event: event, keyPackage: kp, reference: ref)
    }

    /// The MIP profile's tags (MDK 0.8.0).
    static func checkMIPTags(_ event: NostrEvent) throws {
        // MDK requires the tag and knows one value; the pre-MIP hex form without it is gone.
        guard let encoding = event.firstTagValue("encoding") else { throw MLSError(.invalidEvent, "missing encoding tag") }
        guard encoding == "base64" else { throw MLSError(.invalidEvent, "unsupported encoding \(encoding)") }
        guard let extTag = event.tags.first(where: { $0.first == "mls_extensions" }) else {
            throw MLSError(.invalidEvent, "missing mls_extensions tag")
        }
        let listed = Set(extTag.dropFirst().map { $0.lowercased() })
        guard listed.contains("0x000a"), listed.contains("0xf2ee") else {
            throw MLSError(.invalidEvent, "mls_extensions must list 0x000a and 0xf2ee")
        }
        if let proposals = event.tags.first(where: { $0.first == "mls_proposals" }) {
            guard proposals == ["mls_proposals", "0x000a"] else { throw MLSError(.invalidEvent, "mls_proposals must be exactly 0x000a") }
        } else if event.kind == KeyPackageEvent.kind {
            throw MLSError(.invalidEvent, "missing mls_proposals tag")
        }
        let relayTags = event.tags.filter { $0.first == "relays" }
        guard relayTags.count <= 1 else { throw MLSError(.invalidRelays, "\(relayTags.count) relays tags") }
        guard let relayTag = relayTags.first else { throw MLSError(.invalidRelays, "missing relays tag") }
        try KeyPackageEvent.checkRelays(Array(relayTag.dropFirst()))
    }

    /// The current profile's tags: they must describe the decoded package exactly.
    static func checkCurrentTags(_ event: NostrEvent, _ kp: KeyPackage) throws {
        guard event.kind == KeyPackageEvent.kind else { throw MLSError(.invalidEvent, "a current-profile KeyPackage is kind 30443") }
        guard !event.tags.contains(where: { $0.first == "encoding" }) else {
            throw MLSError(.invalidEvent, "a current-profile KeyPackage event has no encoding tag")
        }
        for name in ["d", "mls_protocol_version", "i", "mls_ciphersuite", "mls_extensions", "mls_proposals", "app_components"] {
            let n = event.tags.filter { $0.first == name }.count
            guard n == 1 else { throw MLSError(.invalidEvent, n == 0 ? "missing \(name) tag" : "\(n) \(name) tags") }
        }
        func listed(_ name: String) throws -> Set<UInt16> {
            let values = event.tags.first { $0.first == name }!.dropFirst()
            var out = Set<UInt16>()
            for v in values {
                guard v.utf8.count == 6, v.hasPrefix("0x"), let id = UInt16(v.dropFirst(2), radix: 16), ComponentID.hex(id) == v else {
                    throw MLSError(.invalidEvent, "\(name) value \(v) is not 0x followed by four lowercase hex digits")
                }
                guard out.insert(id).inserted else { throw MLSError(.invalidEvent, "\(name) repeats \(v)") }
            }
            return out
        }
        let caps = kp.leafNode.capabilities
        guard try listed("mls_extensions") == Set(caps.extensions.filter { !MarmotProfile.isGrease($0) }) else {
            throw MLSError(.invalidEvent, "mls_extensions tag differs from the leaf's capabilities")
        }
        guard try listed("mls_proposals") == Set(caps.proposals.filter { !MarmotProfile.isGrease($0) }) else {
            throw MLSError(.invalidEvent, "mls_proposals tag differs from the leaf's capabilities")
        }
        let components = try listed("app_components")
        guard components == Set(try KeyPackageEvent.privateComponents(of: kp)) else {
            throw MLSError(.invalidEvent, "app_components tag differs from the leaf's supported components")
        }
        guard components.contains(ComponentID.accountIdentityProof) else { throw MLSError(.invalidEvent, "app_components tag lacks 0x8009") }
    }

    /// Picks the KeyPackage to invite with from one user's events: invalid ones are dropped (and
    /// reported), then non-last-resort is preferred, then the newest `created_at`, then the smallest
    /// event id (PROTOCOL.md §4.4).
    /// With `profile`, a valid KeyPackage of the other profile is rejected (`profile_mismatch`):
    /// a group takes only its own profile's KeyPackages.
    public static func select(_ events: [NostrEvent], profile: MarmotWireProfile? = nil, now: Int64 = UnixTime.now(),
                              skew: UInt64 = KeyPackageEvent.defaultClockSkew) -> (chosen: ValidatedKeyPackage?, valid: [ValidatedKeyPackage], rejected: [(event: NostrEvent, error: MLSError)]) {
        var valid: [ValidatedKeyPackage] = []
        var rejected: [(event: NostrEvent, error: MLSError)] = []
        for e in events {
            do {
                let v = try validate(e, now: now, skew: skew)
                if let profile, v.keyPackage.profile != profile {
                    rejected.append((e, MLSError(.profileMismatch, "a \(v.keyPackage.profile)-profile KeyPackage for a \(profile)-profile group")))
                } else {
                    valid.append(v)
                }
            } catch {
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

    /// The Lifetime check, with an error that names the bound that failed and by how much.
    static func checkLifetime(_ lifetime: Lifetime, now: UInt64, skew: UInt64) throws {
        if now < lifetime.notBefore, lifetime.notBefore - now > skew {
            throw MLSError(.notYetValid, "not_before \(lifetime.notBefore) is \(lifetime.notBefore - now) s after now \(now) (allowed skew \(skew) s)")
        }
        if now > lifetime.notAfter, now - lifetime.notAfter > skew {
            throw MLSError(.expired, "not_after \(lifetime.notAfter) is \(now - lifetime.notAfter) s before now \(now) (allowed skew \(skew) s)")
        }
    }

    /// RFC 9420 §13.4: an extensions list holds each type at most once.
    static func checkUniqueExtensions(_ types: [UInt16], _ owner: String) throws {
        var seen = Set<UInt16>()
        for t in types where !seen.insert(t).inserted {
            throw MLSError(.invalidValue, "\(owner) lists extension type 0x\(Hex.encode([UInt8(t >> 8), UInt8(t & 0xff)])) twice")
        }
    }

    /// A fixed scalar to test X25519 public keys with: every low-order point (the all-zero key
    /// among them) gives the all-zero shared secret for every clamped scalar, so one
    /// multiplication tells whether HPKE to the key can ever work.
    private static let probe: X25519.PrivateKey = try! X25519.PrivateKey(rawRepresentation: [UInt8](repeating: 0x42, count: 32))

    static func isUsableX25519(_ key: [UInt8]) -> Bool { key.count == 32 && (try? probe.sharedSecret(with: key)) != nil }
}
