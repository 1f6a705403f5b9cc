import InviteKitCrypto
import InviteKitNostr

/// Marmot KeyPackage events (Marmot MIP-00; PROTOCOL.md §4.4): kind 30443 (addressable), legacy kind 443 on read.
public enum KeyPackageEvent {
    public static let kind = 30443
    public static let legacyKind = 443
    /// Clock skew allowed around a KeyPackage's Lifetime (seconds).
    public static let defaultClockSkew: UInt64 = 300
    /// Lifetime of a new KeyPackage when none is given: 90 days.
    public static let defaultLifetime: UInt64 = 90 * 24 * 60 * 60
    /// The longest lifetime `create` accepts: 400 days. It bounds the arithmetic and keeps a
    /// KeyPackage from outliving any sensible key rotation.
    public static let maxLifetime: UInt64 = 400 * 24 * 60 * 60
    /// How far before `created_at` a new KeyPackage's `not_before` lies: one hour, as MDK and
    /// OpenMLS do. OpenMLS accepts a KeyPackage only while `not_before < now` (whole seconds), so a
    /// `not_before` equal to `created_at` is refused in the second it was made and by any peer
    /// whose clock is behind.
    public static let notBeforeMargin: UInt64 = 60 * 60
    /// The `client` tag value.
    public static let clientName = "invitekit"
    /// The longest validity range a current-profile KeyPackage may have (spec
    /// `foundation/key-packages.md`; MDK v0.9.14 `key_package.rs`): 84 days and the one-hour
    /// `not_before` margin.
    public static let currentMaxRange: UInt64 = 7_261_200
    /// The lifetime of a new current-profile KeyPackage: the longest the range allows.
    public static let currentDefaultLifetime: UInt64 = currentMaxRange - notBeforeMargin

    /// The kind-30443 tags of a current-profile KeyPackage, in MDK's order
    /// (`transport-nostr-adapter/src/key_package.rs:85` at v0.9.14; `transports/nostr.md`,
    /// "KeyPackage publication"): `d`, `mls_protocol_version`, `i`, `mls_ciphersuite`,
    /// `mls_extensions` and `mls_proposals` (the leaf's capabilities, GREASE left out),
    /// `app_components` (the leaf's supported ids from `0x8000`). No `relays`, `client` or
    /// `encoding` tag.
    public static func currentTags(for keyPackage: KeyPackage, d: String) throws -> [[String]] {
        let caps = keyPackage.leafNode.capabilities
        return [
            ["d", d],
            ["mls_protocol_version", "1.0"],
            ["i", Hex.encode(keyPackage.reference)],
            ["mls_ciphersuite", keyPackage.cipherSuite.description],
            ["mls_extensions"] + caps.extensions.filter { !MarmotProfile.isGrease($0) }.map(ComponentID.hex),
            ["mls_proposals"] + caps.proposals.filter { !MarmotProfile.isGrease($0) }.map(ComponentID.hex),
            ["app_components"] + (try privateComponents(of: keyPackage)).map(ComponentID.hex),
        ]
    }

    /// The supported component ids of a KeyPackage's leaf from the private range (`0x8000` up),
    /// which its `app_components` tag lists.
    static func privateComponents(of keyPackage: KeyPackage) throws -> [UInt16] {
        guard let d = try AppDataDictionary(extensions: keyPackage.leafNode.extensions), let raw = d[ComponentID.appComponents] else {
            throw MLSError(.invalidIdentityProof, "leaf lists no supported components")
        }
        return try ComponentsList(decoding: raw).ids.filter { $0 >= 0x8000 }
    }

    /// The tags in MDK's order: `d`, `mls_protocol_version`, `mls_ciphersuite`, `mls_extensions`,
    /// `mls_proposals`, `relays`, `i`, optional `-` (NIP-70 protected), `client`, `encoding`.
    public static func tags(for keyPackage: KeyPackage, d: String, relays: [String], protected: Bool = false) -> [[String]] {
        var t: [[String]] = [
            ["d", d],
            ["mls_protocol_version", "1.0"],
            ["mls_ciphersuite", keyPackage.cipherSuite.description],
            ["mls_extensions", "0xf2ee", "0x000a"],
            ["mls_proposals", "0x000a"],
            ["relays"] + relays,
            ["i", Hex.encode(keyPackage.reference)],
        ]
        if protected { t.append(["-"]) }
        t.append(["client", clientName])
        t.append(["encoding", "base64"])
        return t
    }

    /// An unsigned kind-30443 template: content = base64 of the TLS-serialized KeyPackage; `d` is
    /// 32 random bytes in hex.
    public static func template(for keyPackage: KeyPackage, relays: [String], protected: Bool = false, createdAt: Int64? = nil,
                                rng: RandomSource = SystemRandom()) -> EventTemplate {
        EventTemplate(kind: kind, content: Base64.encode(keyPackage.tlsSerialized),
                      tags: tags(for: keyPackage, d: Hex.encode(rng.bytes(32)), relays: relays, protected: protected),
                      createdAt: createdAt)
    }

    /// Creates a KeyPackage for the Nostr key and signs its event. The Lifetime is
    /// `[now - notBeforeMargin, now + lifetime]`. Refuses an empty or malformed relay list
    /// (`invalid_relays`: MDK rejects "Relays tag must have at least one relay URL"), a lifetime of
    /// 0 or above ``maxLifetime``, and a negative `now` (`invalid_value`).
    ///
    /// `profile` (default: the current profile) decides the KeyPackage and its tags
    /// (PROTOCOL §4.4, §5.12.3). A current-profile KeyPackage carries the account identity proof
    /// signed by `nostrKey`, its `lifetime` defaults to ``currentDefaultLifetime`` and may not be
    /// longer, and its event names no relays (they are the account's kind-10002 write relays).
    public static func create(nostrKey: Secp256k1.PrivateKey, relays: [String], lastResort: Bool, lifetime: UInt64? = nil,
                              profile: MarmotWireProfile = .current, now: Int64 = UnixTime.now(),
                              rng: RandomSource = SystemRandom()) throws -> (event: NostrEvent, bundle: KeyPackageBundle) {
        switch profile {
        case .mip:
            try checkRelays(relays)
            let bundle = try KeyPackageBundle.create(identity: nostrKey.publicKey.rawRepresentation,
                                                     lifetime: try Self.lifetime(createdAt: now, seconds: lifetime ?? defaultLifetime),
                                                     lastResort: lastResort, rng: rng)
            let event = try template(for: bundle.keyPackage, relays: relays, createdAt: now, rng: rng).signed(by: nostrKey, using: rng)
            return (event, bundle)
        case .current:
            let seconds = lifetime ?? currentDefaultLifetime
            guard seconds <= currentDefaultLifetime else {
                throw MLSError(.invalidValue, "a current-profile KeyPackage lives at most \(currentDefaultLifetime) s")
            }
            let range = try Self.lifetime(createdAt: now, seconds: seconds)
            let bundle = try KeyPackageBundle.createCurrent(account: nostrKey, lifetime: range, lastResort: lastResort, now: UInt64(now), rng: rng)
            let content = Base64.encode(MLSMessage(.keyPackage(bundle.keyPackage)).tlsSerialized)
            let tags = try currentTags(for: bundle.keyPackage, d: Hex.encode(rng.bytes(32)))
            let event = try EventTemplate(kind: kind, content: content, tags: tags, createdAt: now).signed(by: nostrKey, using: rng)
            return (event, bundle)
        }
    }

    /// The Lifetime of a KeyPackage made at `now` (PROTOCOL.md §4.4): `[now - notBeforeMargin, now +
    /// seconds]`, `seconds` within 1...``maxLifetime``. The one rule for every KeyPackage InviteKit
    /// makes, the group creator's included. Refuses a negative `now` (`invalid_value`).
    package static func lifetime(createdAt now: Int64, seconds lifetime: UInt64 = defaultLifetime) throws -> Lifetime {
        guard lifetime > 0, lifetime <= maxLifetime else {
            throw MLSError(.invalidValue, "lifetime \(lifetime) s is outside 1...\(maxLifetime) s")
        }
        guard now >= 0 else { throw MLSError(.invalidValue, "now \(now) is before the Unix epoch") }
        let created = UInt64(now)
        let (notAfter, overflow) = created.addingReportingOverflow(lifetime)
        guard !overflow else { throw MLSError(.invalidValue, "now + lifetime overflows") }
        return Lifetime(notBefore: created >= notBeforeMargin ? created - notBeforeMargin : 0, notAfter: notAfter)
    }

    /// `true` for what MDK's relay parser takes: a `ws://` or `wss://` URL with a host, no
    /// whitespace or control characters, at most 2,048 bytes.
    public static func isRelayURL(_ url: String) -> Bool { RelayList.isRelayURL(url) }

    /// Checks a `relays` tag's URLs (MIP-00): at least one, each a relay URL (``isRelayURL(_:)``).
    public static func checkRelays(_ relays: [String]) throws {
        guard !relays.isEmpty else { throw MLSError(.invalidRelays, "relays tag must have at least one relay URL") }
        for (i, relay) in relays.enumerated() where !isRelayURL(relay) {
            throw MLSError(.invalidRelays, "relay \(i) is not a ws:// or wss:// URL")
        }
    }
}
