import XCTest
import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitMLS
import InviteKitTestSupport

final class KeyPackageEventTests: XCTestCase {
    let now: Int64 = 1_750_000_000

    func make(lastResort: Bool = false, lifetime: UInt64 = 3600, at: Int64? = nil, key: Secp256k1.PrivateKey = Secp256k1.PrivateKey()) throws -> (NostrEvent, KeyPackageBundle) {
        try KeyPackageEvent.create(nostrKey: key, relays: ["wss://a.example", "wss://b.example"], lastResort: lastResort,
                                   lifetime: lifetime, profile: .mip, now: at ?? now)
    }

    func code(_ body: () throws -> Any) -> MLSError.Code? {
        do { _ = try body(); return nil } catch { return (error as? MLSError)?.code }
    }

    func testTagsInMDKOrder() throws {
        let (e, b) = try make()
        XCTAssertEqual(e.kind, 30443)
        XCTAssertEqual(e.tags.map { $0[0] }, ["d", "mls_protocol_version", "mls_ciphersuite", "mls_extensions", "mls_proposals", "relays", "i", "client", "encoding"])
        XCTAssertEqual(e.tags[1], ["mls_protocol_version", "1.0"])
        XCTAssertEqual(e.tags[2], ["mls_ciphersuite", "0x0001"])
        XCTAssertEqual(e.tags[3], ["mls_extensions", "0xf2ee", "0x000a"])
        XCTAssertEqual(e.tags[4], ["mls_proposals", "0x000a"])
        XCTAssertEqual(e.tags[5], ["relays", "wss://a.example", "wss://b.example"])
        XCTAssertEqual(e.tags[6], ["i", Hex.encode(b.reference)])
        XCTAssertEqual(e.tags[8], ["encoding", "base64"])
        XCTAssertEqual(e.tags[0][1].utf8.count, 64)
        XCTAssertEqual(Base64.decode(e.content), b.keyPackage.tlsSerialized)
        XCTAssertEqual(b.keyPackage.leafNode.capabilities.extensions, [0xf2ee, 0x000a])
        let v = try KeyPackageValidator.validate(e, now: now)
        XCTAssertEqual(v.reference, b.reference)
        XCTAssertFalse(v.isLastResort)
        XCTAssertTrue(try KeyPackageValidator.validate(try make(lastResort: true).0, now: now).isLastResort)
    }

    func testLifetimeWithSkew() throws {
        // not_before is backdated by KeyPackageEvent.notBeforeMargin (3600 s).
        let (e, _) = try make(lifetime: 1000)
        XCTAssertNoThrow(try KeyPackageValidator.validate(e, now: now - 3600 - 299))
        XCTAssertEqual(code { try KeyPackageValidator.validate(e, now: now - 3600 - 301) }, .notYetValid)
        XCTAssertNoThrow(try KeyPackageValidator.validate(e, now: now + 1000 + 300))
        XCTAssertEqual(code { try KeyPackageValidator.validate(e, now: now + 1000 + 301) }, .expired)
        XCTAssertNoThrow(try KeyPackageValidator.validate(e, now: now + 1000 + 301, skew: 1000))
    }

    func resign(_ e: NostrEvent, tags: [[String]]? = nil, content: String? = nil, kind: Int? = nil, key: Secp256k1.PrivateKey) throws -> NostrEvent {
        try EventTemplate(kind: kind ?? e.kind, content: content ?? e.content, tags: tags ?? e.tags, createdAt: e.createdAt).signed(by: key)
    }

    func testRejections() throws {
        let key = Secp256k1.PrivateKey()
        let (e, _) = try make(key: key)
        // Bad outer signature.
        var bad = e; bad.sig = String(repeating: "0", count: 128)
        XCTAssertEqual(code { try KeyPackageValidator.validate(bad, now: now) }, .invalidSignature)
        // Credential != event pubkey: someone else republishes it.
        XCTAssertEqual(code { try KeyPackageValidator.validate(try resign(e, key: Secp256k1.PrivateKey()), now: now) }, .credentialMismatch)
        // i tag mismatch / missing.
        var t = e.tags; t[6] = ["i", String(repeating: "ab", count: 32)]
        XCTAssertEqual(code { try KeyPackageValidator.validate(try resign(e, tags: t, key: key), now: now) }, .invalidEvent)
        t = e.tags; t.remove(at: 6)
        XCTAssertEqual(code { try KeyPackageValidator.validate(try resign(e, tags: t, key: key), now: now) }, .invalidEvent)
        // d tag not 64 hex.
        t = e.tags; t[0] = ["d", "short"]
        XCTAssertEqual(code { try KeyPackageValidator.validate(try resign(e, tags: t, key: key), now: now) }, .invalidEvent)
        // Cipher suite tag.
        t = e.tags; t[2] = ["mls_ciphersuite", "0x0003"]
        XCTAssertEqual(code { try KeyPackageValidator.validate(try resign(e, tags: t, key: key), now: now) }, .unsupportedCipherSuite)
        // Wrong kind.
        XCTAssertEqual(code { try KeyPackageValidator.validate(try resign(e, kind: 1, key: key), now: now) }, .invalidEvent)
        // Garbage content.
        XCTAssertEqual(code { try KeyPackageValidator.validate(try resign(e, content: "AAAA", key: key), now: now) }, .invalidEvent)
        // Tampered KeyPackage signature inside a well-formed event.
        var kp = try KeyPackage(tlsSerialized: Base64.decode(e.content)!)
        kp.signature[0] ^= 1
        t = e.tags; t[6] = ["i", Hex.encode(kp.reference)]
        XCTAssertEqual(code { try KeyPackageValidator.validate(try resign(e, tags: t, content: Base64.encode(kp.tlsSerialized), key: key), now: now) },
                       .invalidSignature)
    }

    func testLegacy443AcceptedOnRead() throws {
        let key = Secp256k1.PrivateKey()
        let (e, b) = try make(key: key)
        // Legacy kind 443 as MDK 0.8.0 writes it: the 30443 tags without `d` (and here without `i`).
        let tags = e.tags.filter { $0.first != "d" && $0.first != "i" }
        let legacy = try EventTemplate(kind: 443, content: e.content, tags: tags, createdAt: e.createdAt).signed(by: key)
        XCTAssertEqual(try KeyPackageValidator.validate(legacy, now: now).reference, b.reference)
        // The pre-MIP form (hex content, no encoding tag) is refused, as MDK 0.8.0 refuses it.
        let old = try EventTemplate(kind: 443, content: Hex.encode(b.keyPackage.tlsSerialized),
                                    tags: [["mls_protocol_version", "1.0"], ["mls_ciphersuite", "0x0001"]], createdAt: e.createdAt).signed(by: key)
        XCTAssertEqual(code { try KeyPackageValidator.validate(old, now: self.now) }, .invalidEvent)
    }

    func testSelectionRule() throws {
        let key = Secp256k1.PrivateKey()
        let (older, _) = try make(at: now - 100, key: key)
        let (newer, _) = try make(at: now - 10, key: key)
        let (lastResort, _) = try make(lastResort: true, at: now, key: key)
        let (expired, _) = try make(lifetime: 10, at: now - 5000, key: key)
        var invalid = newer; invalid.sig = String(repeating: "1", count: 128); invalid.createdAt += 1000
        let r = KeyPackageValidator.select([lastResort, older, expired, invalid, newer], now: now)
        XCTAssertEqual(r.chosen?.event.id, newer.id)
        XCTAssertEqual(r.valid.count, 3)
        XCTAssertEqual(r.rejected.count, 2)
        XCTAssertEqual(KeyPackageValidator.select([lastResort, expired], now: now).chosen?.event.id, lastResort.id)
        // Same created_at: smallest id.
        let (a, _) = try make(at: now, key: key)
        let (b, _) = try make(at: now, key: key)
        XCTAssertEqual(KeyPackageValidator.select([a, b], now: now).chosen?.event.id, min(a.id, b.id))
    }

    func testFileStoreRoundTripAndRetire() throws {
        let tmp = TemporaryDirectory(prefix: "ik-mls")
        defer { withExtendedLifetime(tmp) {} }
        let dir = tmp.fileURL("keypackages")
        let store = try FileKeyPackageStore(directory: dir)
        let (_, normal) = try make()
        let (_, lr) = try make(lastResort: true)
        try store.save(normal)
        try store.save(lr)
        XCTAssertEqual(Set(try store.references()), [normal.reference, lr.reference])
        let back = try XCTUnwrap(try store.bundle(reference: normal.reference))
        XCTAssertEqual(back.keyPackage, normal.keyPackage)
        XCTAssertEqual(back.initPrivateKey.publicKey, normal.initPrivateKey.publicKey)
        let attrs = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(Hex.encode(normal.reference) + ".keypackage").path)
        XCTAssertEqual((attrs[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        try store.consume(reference: normal.reference)
        try store.consume(reference: lr.reference)
        XCTAssertNil(try store.bundle(reference: normal.reference))
        XCTAssertNotNil(try store.bundle(reference: lr.reference))
        XCTAssertThrowsError(try store.consume(reference: normal.reference)) { XCTAssertEqual(($0 as? MLSError)?.code, .notFound) }
    }
}
