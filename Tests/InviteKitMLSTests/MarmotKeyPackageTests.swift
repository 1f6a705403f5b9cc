import XCTest
import InviteKitCrypto
import InviteKitNostr
import InviteKitTestSupport
@testable import InviteKitMLS

/// The KeyPackage defects of issues 11 and 13, each pinned by a test that failed before its fix,
/// and MDK 0.8.0's own KeyPackage events read back.
final class MarmotKeyPackageTests: XCTestCase {
    let now: Int64 = 1_795_424_795
    let relays = ["wss://relay.example.com", "wss://relay2.example.com"]

    func code(_ body: () throws -> Any) -> MLSError.Code? {
        do { _ = try body(); return nil } catch { return (error as? MLSError)?.code }
    }

    func error(_ body: () throws -> Any) -> MLSError? {
        do { _ = try body(); return nil } catch { return error as? MLSError }
    }

    func sample(_ name: String) throws -> NostrEvent {
        try NostrEvent(json: String(decoding: try VectorFiles.data("marmot/mdk-0.8.0/\(name)"), as: UTF8.self))
    }

    /// Re-signs a KeyPackage after `edit`, and its event (with a fresh `i` tag) after `tags`.
    func reissue(_ event: NostrEvent, _ bundle: KeyPackageBundle, key: Secp256k1.PrivateKey,
                 edit: (inout KeyPackage) -> Void = { _ in }, tags: (inout [[String]]) -> Void = { _ in },
                 content: ((KeyPackage) -> String)? = nil) throws -> NostrEvent {
        var kp = bundle.keyPackage
        edit(&kp)
        kp.signature = MLSCrypto.signWithLabel(bundle.signaturePrivateKey, label: "KeyPackageTBS", content: kp.tbs)
        var t = event.tags
        if let i = t.firstIndex(where: { $0.first == "i" }) { t[i] = ["i", Hex.encode(kp.reference)] }
        tags(&t)
        return try EventTemplate(kind: event.kind, content: content?(kp) ?? Base64.encode(kp.tlsSerialized), tags: t,
                                 createdAt: event.createdAt).signed(by: key)
    }

    // MARK: issue 11

    func testNotBeforeIsBackdatedByTheMargin() throws {
        let (e, b) = try KeyPackageEvent.create(nostrKey: Secp256k1.PrivateKey(), relays: relays, lastResort: false, lifetime: 7200, profile: .mip, now: now)
        let lifetime = try XCTUnwrap(b.keyPackage.leafNode.lifetime)
        XCTAssertEqual(KeyPackageEvent.notBeforeMargin, 3600)
        XCTAssertEqual(lifetime.notBefore, UInt64(now) - 3600)
        XCTAssertEqual(lifetime.notAfter, UInt64(now) + 7200)
        // OpenMLS's rule, not_before < now < not_after with no skew, holds in the second it was made.
        XCTAssertLessThan(lifetime.notBefore, UInt64(now))
        XCTAssertNoThrow(try KeyPackageValidator.validate(e, now: now, skew: 0))
        // ... and for a peer whose clock is 59 minutes behind.
        XCTAssertNoThrow(try KeyPackageValidator.validate(e, now: now - 3540, skew: 0))
    }

    func testCreateRefusesAnEmptyRelayList() {
        XCTAssertEqual(code { try KeyPackageEvent.create(nostrKey: Secp256k1.PrivateKey(), relays: [], lastResort: false, profile: .mip, now: self.now) },
                       .invalidRelays)
        XCTAssertEqual(code { try KeyPackageEvent.create(nostrKey: Secp256k1.PrivateKey(), relays: ["https://x.example"], lastResort: false, profile: .mip, now: self.now) },
                       .invalidRelays)
        XCTAssertEqual(code { try KeyPackageEvent.create(nostrKey: Secp256k1.PrivateKey(), relays: [""], lastResort: false, profile: .mip, now: self.now) },
                       .invalidRelays)
    }

    func testVerifyFlagsAnEmptyRelaysTag() throws {
        let key = Secp256k1.PrivateKey()
        let (e, b) = try KeyPackageEvent.create(nostrKey: key, relays: relays, lastResort: false, profile: .mip, now: now)
        let empty = try reissue(e, b, key: key, tags: { t in t[t.firstIndex { $0.first == "relays" }!] = ["relays"] })
        XCTAssertEqual(code { try KeyPackageValidator.validate(empty, now: self.now) }, .invalidRelays)
        let missing = try reissue(e, b, key: key, tags: { t in t.removeAll { $0.first == "relays" } })
        XCTAssertEqual(code { try KeyPackageValidator.validate(missing, now: self.now) }, .invalidRelays)
        let bogus = try reissue(e, b, key: key, tags: { t in t[t.firstIndex { $0.first == "relays" }!] = ["relays", "javascript:alert(1)"] })
        XCTAssertEqual(code { try KeyPackageValidator.validate(bogus, now: self.now) }, .invalidRelays)
    }

    func testLifetimeErrorsNameTheBoundAndTheDistance() throws {
        let (e, _) = try KeyPackageEvent.create(nostrKey: Secp256k1.PrivateKey(), relays: relays, lastResort: false, lifetime: 1000, profile: .mip, now: now)
        let notBefore = now - 3600, notAfter = now + 1000
        let early = try XCTUnwrap(error { try KeyPackageValidator.validate(e, now: notBefore - 312, skew: 300) })
        XCTAssertEqual(early.code, .notYetValid)
        XCTAssertTrue(early.detail.contains("not_before \(notBefore)"), early.detail)
        XCTAssertTrue(early.detail.contains("312 s"), early.detail)
        let late = try XCTUnwrap(error { try KeyPackageValidator.validate(e, now: notAfter + 345, skew: 300) })
        XCTAssertEqual(late.code, .expired)
        XCTAssertTrue(late.detail.contains("not_after \(notAfter)"), late.detail)
        XCTAssertTrue(late.detail.contains("345 s"), late.detail)
        XCTAssertNoThrow(try KeyPackageValidator.validate(e, now: notBefore - 300, skew: 300))
        XCTAssertNoThrow(try KeyPackageValidator.validate(e, now: notAfter + 300, skew: 300))
    }

    func testLifetimeArithmeticIsBounded() {
        let key = Secp256k1.PrivateKey()
        for lifetime in [UInt64.max, 18_446_744_071_914_127_000, 1 << 63, KeyPackageEvent.maxLifetime + 1, 0] {
            XCTAssertEqual(code { try KeyPackageEvent.create(nostrKey: key, relays: self.relays, lastResort: false, lifetime: lifetime, profile: .mip, now: self.now) },
                           .invalidValue, "lifetime \(lifetime)")
        }
        XCTAssertEqual(code { try KeyPackageEvent.create(nostrKey: key, relays: self.relays, lastResort: false, profile: .mip, now: -1) }, .invalidValue)
        XCTAssertNoThrow(try KeyPackageEvent.create(nostrKey: key, relays: relays, lastResort: false, lifetime: KeyPackageEvent.maxLifetime, profile: .mip, now: now))
    }

    // MARK: issue 13, "lenient accepts to tighten"

    func testRejectsALowOrderInitKey() throws {
        let key = Secp256k1.PrivateKey()
        let (e, b) = try KeyPackageEvent.create(nostrKey: key, relays: relays, lastResort: false, profile: .mip, now: now)
        let zero = try reissue(e, b, key: key, edit: { $0.initKey = [UInt8](repeating: 0, count: 32) })
        XCTAssertEqual(code { try KeyPackageValidator.validate(zero, now: self.now) }, .invalidKey)
        // The order-8 point of Curve25519 (u = 1 is order 4; this one is from the small-subgroup list).
        let lowOrder = Hex.decode("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800")!
        let small = try reissue(e, b, key: key, edit: { $0.initKey = lowOrder })
        XCTAssertEqual(code { try KeyPackageValidator.validate(small, now: self.now) }, .invalidKey)
    }

    func testRejectsTwoITags() throws {
        let key = Secp256k1.PrivateKey()
        let (e, b) = try KeyPackageEvent.create(nostrKey: key, relays: relays, lastResort: false, profile: .mip, now: now)
        let twice = try reissue(e, b, key: key, tags: { t in t.append(["i", String(repeating: "ab", count: 32)]) })
        XCTAssertEqual(code { try KeyPackageValidator.validate(twice, now: self.now) }, .invalidEvent)
        // Even when both name the right reference.
        let same = try reissue(e, b, key: key, tags: { t in t.append(t.first { $0.first == "i" }!) })
        XCTAssertEqual(code { try KeyPackageValidator.validate(same, now: self.now) }, .invalidEvent)
    }

    func testRejectsADuplicatedExtensionType() throws {
        let key = Secp256k1.PrivateKey()
        let (e, b) = try KeyPackageEvent.create(nostrKey: key, relays: relays, lastResort: true, profile: .mip, now: now)
        let dup = try reissue(e, b, key: key, edit: { $0.extensions = [.lastResort, .lastResort] })
        XCTAssertEqual(code { try KeyPackageValidator.validate(dup, now: self.now) }, .invalidValue)
    }

    func testRejectsUnpaddedBase64() throws {
        let key = Secp256k1.PrivateKey()
        // A GREASE capability (as MDK adds) makes the KeyPackage length not a multiple of 3, so its
        // base64 has padding to strip.
        var caps = Capabilities.marmot
        caps.extensions.append(0x0a0a)
        let b = try KeyPackageBundle.create(identity: key.publicKey.rawRepresentation, lifetime: Lifetime(notBefore: 0, notAfter: UInt64.max),
                                            lastResort: false, capabilities: caps)
        let e = try KeyPackageEvent.template(for: b.keyPackage, relays: relays, createdAt: now).signed(by: key)
        XCTAssertTrue(e.content.hasSuffix("="), "the fixture needs padding to strip")
        XCTAssertNoThrow(try KeyPackageValidator.validate(e, now: now))
        let unpadded = try reissue(e, b, key: key, content: { kp in Base64.encode(kp.tlsSerialized, padded: false) })
        XCTAssertEqual(code { try KeyPackageValidator.validate(unpadded, now: self.now) }, .invalidEvent)
        // Without the encoding tag there is no fallback to another decoder.
        let untagged = try reissue(e, b, key: key, tags: { t in t.removeAll { $0.first == "encoding" } },
                                   content: { kp in Base64.encode(kp.tlsSerialized, padded: false) })
        XCTAssertEqual(code { try KeyPackageValidator.validate(untagged, now: self.now) }, .invalidEvent)
    }

    func testRejectsAnExtensionMissingFromCapabilities() throws {
        let key = Secp256k1.PrivateKey()
        let (e, b) = try KeyPackageEvent.create(nostrKey: key, relays: relays, lastResort: false, profile: .mip, now: now)
        let extra = try reissue(e, b, key: key, edit: { $0.extensions = [MLSExtension(type: 0x7777, data: [])] })
        XCTAssertEqual(code { try KeyPackageValidator.validate(extra, now: self.now) }, .invalidValue)
    }

    // MARK: MDK's own events

    func testMDKKeyPackagesValidate() throws {
        for name in ["mdk_keypackage_30443.json", "mdk_keypackage_443_legacy.json"] {
            let e = try sample(name)
            // Strictly inside the lifetime, as OpenMLS checks it, in the second it was made.
            let v = try KeyPackageValidator.validate(e, now: e.createdAt, skew: 0)
            XCTAssertTrue(v.isLastResort, name)
            let lifetime = try XCTUnwrap(v.keyPackage.leafNode.lifetime)
            XCTAssertEqual(lifetime.notBefore, UInt64(e.createdAt) - 3600, "MDK backdates not_before by one hour")
            let caps = v.keyPackage.leafNode.capabilities
            // MDK adds one GREASE value to each capability list.
            XCTAssertEqual(caps.extensions.filter { !MarmotProfile.isGrease($0) }, [0x000a, 0xf2ee])
            XCTAssertEqual(caps.proposals.filter { !MarmotProfile.isGrease($0) }, [0x000a])
            XCTAssertEqual(caps.cipherSuites.filter { !MarmotProfile.isGrease($0) }, [0x0001])
            XCTAssertEqual(caps.extensions.filter(MarmotProfile.isGrease).count, 1)
            XCTAssertEqual(v.keyPackage.extensions.map(\.extensionType), [0x000a])
        }
    }

    func testOldInviteKitKeyPackageShowsTheDefect() throws {
        let e = try sample("invitekit_keypackage_30443.json")
        let kp = try KeyPackage(tlsSerialized: XCTUnwrap(Base64.decode(e.content)))
        XCTAssertEqual(kp.leafNode.lifetime?.notBefore, UInt64(e.createdAt), "made before the margin: not_before = created_at")
        XCTAssertEqual(code { try KeyPackageValidator.validate(e, now: e.createdAt - 1, skew: 0) }, .notYetValid)
    }
}
