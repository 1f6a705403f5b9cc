import XCTest
import InviteKitCrypto
import InviteKitNostr
import InviteKitMLS

/// Altered MDK output must be refused by InviteKit, and altered InviteKit output by MDK: each
/// side's checks hold against the other's genuine events, not only against its own.
final class MDKInteropHostileInputTests: XCTestCase {
    var worker: MDKWorker!
    let relays = InteropScenarios.relays

    override func setUpWithError() throws { worker = try MDKWorker.startOrSkip() }
    override func tearDown() { worker = nil }

    func code(_ body: () throws -> Any) -> String? {
        do { _ = try body(); return nil } catch let e as MLSError { return e.code.rawValue } catch let e as NostrError { return e.code.rawValue } catch {
            return "\(error)"
        }
    }

    func testInviteKitRefusesMDKKeyPackageWithAWrongRef() throws {
        var event = try worker.newPeer("p").createKeyPackage(relays: relays).event
        event.tags = event.tags.map { $0.first == "i" ? ["i", String(repeating: "0", count: 64)] : $0 }
        // The event id no longer matches, so the signature check comes first; re-sign to reach the ref check.
        let signer = Secp256k1.PrivateKey()
        XCTAssertEqual(code { try KeyPackageValidator.validate(event) }, MLSError.Code.invalidSignature.rawValue)
        let resigned = try EventTemplate(kind: event.kind, content: event.content, tags: event.tags, createdAt: event.createdAt).signed(by: signer)
        XCTAssertNotNil(code { try KeyPackageValidator.validate(resigned) })
    }

    func testInviteKitRefusesMDKKeyPackageRepublishedByAnotherKey() throws {
        let event = try worker.newPeer("p").createKeyPackage(relays: relays).event
        let thief = Secp256k1.PrivateKey()
        let stolen = try EventTemplate(kind: event.kind, content: event.content, tags: event.tags, createdAt: event.createdAt).signed(by: thief)
        XCTAssertEqual(code { try KeyPackageValidator.validate(stolen) }, MLSError.Code.credentialMismatch.rawValue)
    }

    func testMDKRefusesInviteKitKeyPackageRepublishedByAnotherKey() throws {
        let mdk = try worker.newPeer("mdk")
        let member = InviteKitMember(label: "ik")
        let event = try member.keyPackageEvent(relays: relays)
        let stolen = try EventTemplate(kind: event.kind, content: event.content, tags: event.tags, createdAt: event.createdAt)
            .signed(by: Secp256k1.PrivateKey())
        XCTAssertNoThrow(try mdk.parseKeyPackage(event), "the genuine event is accepted")
        XCTAssertThrowsError(try mdk.createGroup(name: "x", relays: relays, admins: [mdk.pubkey], inviting: [stolen]),
                             "MDK adds a KeyPackage whose credential is not the event author")
    }

    func testInviteKitRefusesMDKWelcomeForSomeoneElse() throws {
        let mdk = try worker.newPeer("mdk")
        let member = InviteKitMember(label: "ik")
        let (_, change) = try mdk.createGroup(name: "w", relays: relays, admins: [mdk.pubkey],
                                              inviting: [try member.keyPackageEvent(relays: relays)])
        let wrap = try XCTUnwrap(change.welcome(for: member.pubkey))
        XCTAssertNotNil(code { try GiftWrap.unwrap(wrap, recipient: Secp256k1.PrivateKey()) })
        var tampered = wrap
        tampered.content = String(tampered.content.dropLast(4)) + "AAAA"
        XCTAssertEqual(code { try GiftWrap.unwrap(tampered, recipient: member.key) }, NostrError.Code.invalidId.rawValue)
    }

    func testMDKRefusesGroupEventsWithAlteredContent() throws {
        let alice = try worker.newPeer("alice"), bob = try worker.newPeer("bob")
        let group = try InteropScenarios.createAndJoin(creator: alice, joiner: bob)
        let event = try alice.send("hello", group: group)
        var bytes = try XCTUnwrap(Base64.decode(event.content))
        bytes[bytes.count / 2] ^= 0x01
        // Re-signed by a fresh key, as every kind 445 is, so only the ciphertext is wrong.
        let altered = try EventTemplate(kind: 445, content: Base64.encode(bytes), tags: event.tags, createdAt: event.createdAt)
            .signed(by: Secp256k1.PrivateKey())
        XCTAssertFalse(try bob.process(altered).isMessage)
        XCTAssertEqual(try bob.process(event), .message(sender: alice.pubkey, content: "hello"), "the genuine event still reads")
    }
}
