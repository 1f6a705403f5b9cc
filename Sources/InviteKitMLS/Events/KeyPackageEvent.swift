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
    /// The `client` tag value.
    public static let clientName = "invitekit"

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

    /// Creates a KeyPackage for the Nostr key and signs its event.
    public static func create(nostrKey: Secp256k1.PrivateKey, relays: [String], lastResort: Bool, lifetime: UInt64 = defaultLifetime,
                              now: Int64 = UnixTime.now(), rng: RandomSource = SystemRandom()) throws -> (event: NostrEvent, bundle: KeyPackageBundle) {
        let start = UInt64(max(0, now))
        let bundle = try KeyPackageBundle.create(identity: nostrKey.publicKey.rawRepresentation,
                                                 lifetime: Lifetime(notBefore: start, notAfter: start &+ lifetime), lastResort: lastResort, rng: rng)
        let event = try template(for: bundle.keyPackage, relays: relays, createdAt: now, rng: rng).signed(by: nostrKey, using: rng)
        return (event, bundle)
    }
}
