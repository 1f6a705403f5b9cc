import XCTest
import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitMLS

final class GroupNostrTests: XCTestCase {
    func testFullFlowOverEvents() throws {
        let aliceKey = Secp256k1.PrivateKey(), bobKey = Secp256k1.PrivateKey()
        var alice = GroupSession(state: try GroupState.create(identity: aliceKey.publicKey.rawRepresentation))
        let bobStore = MemoryKeyPackageStore()
        let (kpEvent, bundle) = try KeyPackageEvent.create(nostrKey: bobKey, relays: ["wss://r.example"], lastResort: false)
        try bobStore.save(bundle)
        let chosen = try XCTUnwrap(KeyPackageValidator.select([kpEvent]).chosen)

        let pending = try alice.commit([.add(chosen.keyPackage)])
        XCTAssertEqual(pending.event.kind, 445)
        XCTAssertEqual(pending.event.tags, [["h", Hex.encode(alice.state.nostrGroupID)]])
        XCTAssertNotEqual(pending.event.pubkey, aliceKey.publicKey.hex)
        XCTAssertThrowsError(try alice.confirmPublished(pending, acknowledgedBy: [])) {
            XCTAssertEqual(($0 as? GroupError)?.code, .commitNotPublished)
        }
        let welcomes = try alice.confirmPublished(pending, acknowledgedBy: ["wss://r.example"])
        XCTAssertEqual(welcomes.count, 1)
        let wrap = try WelcomeEvent.giftWrap(welcomes[0], keyPackageEventID: kpEvent.id, relays: ["wss://r.example"], from: aliceKey, to: bobKey.publicKey)
        XCTAssertEqual(wrap.kind, 1059)
        var bob = try GroupSession.join(giftWrap: wrap, recipient: bobKey, store: bobStore)
        XCTAssertEqual(bob.state.epochFingerprint, alice.state.epochFingerprint)
        XCTAssertNil(try bobStore.bundle(reference: bundle.reference))

        let msg = try bob.message(EventTemplate(kind: 9, content: "hello"))
        let ev2 = try alice.message(EventTemplate(kind: 9, content: "second"))
        XCTAssertNotEqual(msg.pubkey, ev2.pubkey, "fresh ephemeral key per event")
        let out = try alice.receive(event: msg)
        guard case .message(let inner, _) = out.first else { return XCTFail("\(out)") }
        XCTAssertEqual(inner.content, "hello")
        XCTAssertEqual(inner.pubkey, bobKey.publicKey.hex)
        XCTAssertNil(inner.sig)
        XCTAssertThrowsError(try alice.receive(event: msg)) { XCTAssertEqual(($0 as? GroupError)?.code, .replay) }

        // Leave request over events, committed by the admin.
        let leave = try bob.leaveEvent()
        guard case .leaveRequest(let who) = try alice.receive(event: leave).first else { return XCTFail() }
        XCTAssertEqual(who, bobKey.publicKey.hex)
        let p2 = try alice.commit([.selfRemove(identity: bobKey.publicKey.rawRepresentation)])
        _ = try alice.confirmPublished(p2, acknowledgedBy: ["wss://r.example"])
        guard case .removed = try bob.receive(event: p2.event).first else { return XCTFail() }
    }

    func testInnerEventClaimingAnotherAuthorIsRejected() throws {
        let aliceKey = Secp256k1.PrivateKey(), bobKey = Secp256k1.PrivateKey(), mallory = Secp256k1.PrivateKey()
        var alice = GroupSession(state: try GroupState.create(identity: aliceKey.publicKey.rawRepresentation))
        let store = MemoryKeyPackageStore()
        let (_, bundle) = try KeyPackageEvent.create(nostrKey: bobKey, relays: ["wss://r.example"], lastResort: false)
        try store.save(bundle)
        let p = try alice.commit([.add(bundle.keyPackage)])
        let w = try alice.confirmPublished(p, acknowledgedBy: ["wss://x"])
        let bob = try GroupSession.join(welcome: w[0], store: store)
        // Bob sends a rumor that claims to be from someone else.
        let forged = EventTemplate(kind: 9, content: "x").rumor(pubkey: mallory.publicKey)
        let sealed = try bob.encryptApplication(forged.jsonBytes)
        let ev = try GroupEvent.make(sealed: sealed, nostrGroupID: bob.state.nostrGroupID)
        guard case .rejectedMessage(let err) = try alice.receive(event: ev).first else { return XCTFail() }
        XCTAssertEqual(err.code, .senderMismatch)
        // Wrong h tag.
        var other = ev
        other.tags = [["h", String(repeating: "00", count: 32)]]
        XCTAssertThrowsError(try alice.receive(event: other)) { XCTAssertEqual(($0 as? GroupError)?.code, .invalidEvent) }
    }

    func testLastResortPackageServesTwoGroupsAndWelcomeRumorTags() throws {
        let carolKey = Secp256k1.PrivateKey()
        let store = MemoryKeyPackageStore()
        let (kpEvent, bundle) = try KeyPackageEvent.create(nostrKey: carolKey, relays: ["wss://r"], lastResort: true)
        try store.save(bundle)
        var fingerprints: [[UInt8]] = []
        for _ in 0..<2 {
            let adminKey = Secp256k1.PrivateKey()
            var admin = GroupSession(state: try GroupState.create(identity: adminKey.publicKey.rawRepresentation))
            let p = try admin.commit([.add(bundle.keyPackage)])
            let w = try admin.confirmPublished(p, acknowledgedBy: ["wss://r"])
            let rumor = WelcomeEvent.rumor(w[0], keyPackageEventID: kpEvent.id, relays: ["wss://r", "wss://s"], author: adminKey.publicKey)
            XCTAssertEqual(rumor.kind, 444)
            XCTAssertNil(rumor.sig)
            XCTAssertEqual(rumor.tags, [["relays", "wss://r", "wss://s"], ["e", kpEvent.id], ["encoding", "base64"]])
            let parsed = try WelcomeEvent.parse(rumor)
            XCTAssertEqual(parsed.keyPackageEventID, kpEvent.id)
            let wrap = try WelcomeEvent.giftWrap(w[0], keyPackageEventID: kpEvent.id, relays: ["wss://r"], from: adminKey, to: carolKey.publicKey)
            let carol = try GroupSession.join(giftWrap: wrap, recipient: carolKey, store: store)
            XCTAssertEqual(carol.state.epochFingerprint, admin.state.epochFingerprint)
            fingerprints.append(carol.state.epochFingerprint)
        }
        XCTAssertNotEqual(fingerprints[0], fingerprints[1])
        XCTAssertNotNil(try store.bundle(reference: bundle.reference))
    }

    func testAddFromKeyPackageEventsAndWrapWelcomes() throws {
        let adminKey = Secp256k1.PrivateKey()
        var admin = GroupSession(state: try GroupState.create(identity: adminKey.publicKey.rawRepresentation))
        var joiners: [(Secp256k1.PrivateKey, MemoryKeyPackageStore, ValidatedKeyPackage)] = []
        for _ in 0..<3 {
            let k = Secp256k1.PrivateKey(), store = MemoryKeyPackageStore()
            let (ev, b) = try KeyPackageEvent.create(nostrKey: k, relays: ["wss://r"], lastResort: false)
            try store.save(b)
            joiners.append((k, store, try XCTUnwrap(KeyPackageValidator.select([ev]).chosen)))
        }
        let pending = try admin.commit(adding: joiners.map(\.2))
        let wraps = try admin.confirmPublished(pending, acknowledgedBy: ["wss://r"], wrappingWelcomesFrom: adminKey, welcomeRelays: ["wss://r"])
        XCTAssertEqual(wraps.count, 3)
        for (k, store, kp) in joiners {
            let wrap = try XCTUnwrap(wraps.first { $0.firstTagValue("p") == k.publicKey.hex })
            let s = try GroupSession.join(giftWrap: wrap, recipient: k, store: store)
            XCTAssertEqual(s.state.epochFingerprint, admin.state.epochFingerprint)
            let rumor = try GiftWrap.unwrap(wrap, recipient: k).rumor
            XCTAssertEqual(rumor.firstTagValue("e"), kp.event.id)
            XCTAssertEqual(rumor.pubkey, adminKey.publicKey.hex)
        }
    }

    func testWelcomeWrappedByANonAdminIsRejectedAndKeepsThePackage() throws {
        let adminKey = Secp256k1.PrivateKey(), bobKey = Secp256k1.PrivateKey(), stranger = Secp256k1.PrivateKey()
        var admin = GroupSession(state: try GroupState.create(identity: adminKey.publicKey.rawRepresentation))
        let store = MemoryKeyPackageStore()
        let (ev, bundle) = try KeyPackageEvent.create(nostrKey: bobKey, relays: ["wss://r.example"], lastResort: false)
        try store.save(bundle)
        let p = try admin.commit([.add(bundle.keyPackage)])
        let w = try admin.confirmPublished(p, acknowledgedBy: ["wss://x"])
        let forged = try WelcomeEvent.giftWrap(w[0], keyPackageEventID: ev.id, relays: [], from: stranger, to: bobKey.publicKey)
        XCTAssertThrowsError(try GroupSession.join(giftWrap: forged, recipient: bobKey, store: store)) {
            XCTAssertEqual(($0 as? GroupError)?.code, .invalidWelcome)
        }
        XCTAssertNotNil(try store.bundle(reference: bundle.reference))
        let good = try WelcomeEvent.giftWrap(w[0], keyPackageEventID: ev.id, relays: [], from: adminKey, to: bobKey.publicKey)
        XCTAssertNoThrow(try GroupSession.join(giftWrap: good, recipient: bobKey, store: store))
    }
}
