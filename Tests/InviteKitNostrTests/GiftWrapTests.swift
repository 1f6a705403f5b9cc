import XCTest
import InviteKitTestSupport
import InviteKitCrypto
@testable import InviteKitNostr

final class GiftWrapTests: XCTestCase {
    let alice = Secp256k1.PrivateKey(using: SeededRandom(seed: 101))
    let bob = Secp256k1.PrivateKey(using: SeededRandom(seed: 102))
    let mallory = Secp256k1.PrivateKey(using: SeededRandom(seed: 103))

    /// The worked example of NIP-59 (vectors/external/nip59-example.json).
    func testSpecExampleUnwraps() throws {
        let v = try VectorFiles.json("external/nip59-example.json") as! [String: Any]
        let keys = v["keys"] as! [String: String]
        let wrapData = try JSONSerialization.data(withJSONObject: v["gift_wrap"]!)
        let wrap = try NostrEvent(json: Array(wrapData))
        let recipient = try Secp256k1.PrivateKey(rawRepresentation: hex(keys["recipient_secret_key"]!))
        let opened = try GiftWrap.unwrap(wrap, recipient: recipient)
        XCTAssertEqual(opened.sender.hex, keys["author_public_key"])
        let rumor = v["rumor"] as! [String: Any]
        XCTAssertEqual(opened.rumor.id, rumor["id"] as? String)
        XCTAssertEqual(opened.rumor.content, rumor["content"] as? String)
        XCTAssertEqual(opened.seal.id, (v["seal"] as! [String: Any])["id"] as? String)
        XCTAssertNil(opened.rumor.sig)
    }

    func testRoundTripAndTimestampsAreRandomisedIntoThePast() throws {
        let now: Int64 = 1_800_000_000
        let template = EventTemplate(kind: 14, content: "hello \"bob\"\n☕", tags: [["p", bob.publicKey.hex]], createdAt: now)
        var sealTimes = Set<Int64>(), wrapTimes = Set<Int64>()
        for _ in 0..<8 {
            let wrap = try GiftWrap.wrap(template: template, from: alice, to: bob.publicKey, now: now)
            XCTAssertEqual(wrap.kind, 1059)
            XCTAssertEqual(wrap.firstTagValue("p"), bob.publicKey.hex)
            XCTAssertNotEqual(wrap.pubkey, alice.publicKey.hex)
            XCTAssertTrue((now - GiftWrap.maxBackdate...now).contains(wrap.createdAt))
            let opened = try GiftWrap.unwrap(wrap, recipient: bob)
            XCTAssertTrue((now - GiftWrap.maxBackdate...now).contains(opened.seal.createdAt))
            XCTAssertEqual(opened.sender, alice.publicKey)
            XCTAssertEqual(opened.rumor.content, template.content)
            XCTAssertEqual(opened.rumor.createdAt, now)
            sealTimes.insert(opened.seal.createdAt); wrapTimes.insert(wrap.createdAt)
        }
        XCTAssertGreaterThan(sealTimes.count, 1)
        XCTAssertGreaterThan(wrapTimes.count, 1)
    }

    func testWrongRecipientCannotOpen() throws {
        let wrap = try GiftWrap.wrap(template: EventTemplate(kind: 14, content: "x"), from: alice, to: bob.publicKey)
        XCTAssertThrowsError(try GiftWrap.unwrap(wrap, recipient: mallory)) {
            XCTAssertEqual(($0 as? NostrError)?.code, .notForRecipient)
        }
    }

    /// A seal signed by Mallory around a rumor claiming to be from Alice: the spoof that several
    /// libraries let through.
    func testSenderSpoofingIsRejected() throws {
        let rumor = EventTemplate(kind: 14, content: "I am Alice").rumor(pubkey: alice.publicKey)
        let sealContent = try NIP44.encrypt(rumor.jsonBytes, from: mallory, to: bob.publicKey)
        let seal = try EventTemplate(kind: 13, content: sealContent).signed(by: mallory)
        let oneTime = Secp256k1.PrivateKey()
        let wrap = try EventTemplate(kind: 1059, content: try NIP44.encrypt(seal.jsonBytes, from: oneTime, to: bob.publicKey),
                                     tags: [["p", bob.publicKey.hex]]).signed(by: oneTime)
        XCTAssertThrowsError(try GiftWrap.unwrap(wrap, recipient: bob)) {
            XCTAssertEqual(($0 as? NostrError)?.code, .senderMismatch)
        }
    }

    func testTamperedRumorIdIsRejected() throws {
        var rumor = EventTemplate(kind: 14, content: "original").rumor(pubkey: alice.publicKey)
        rumor.content = "edited"  // id no longer matches
        let sealContent = try NIP44.encrypt(rumor.jsonBytes, from: alice, to: bob.publicKey)
        let seal = try EventTemplate(kind: 13, content: sealContent).signed(by: alice)
        let oneTime = Secp256k1.PrivateKey()
        let wrap = try EventTemplate(kind: 1059, content: try NIP44.encrypt(seal.jsonBytes, from: oneTime, to: bob.publicKey),
                                     tags: [["p", bob.publicKey.hex]]).signed(by: oneTime)
        XCTAssertThrowsError(try GiftWrap.unwrap(wrap, recipient: bob)) {
            XCTAssertEqual(($0 as? NostrError)?.code, .rumorIdMismatch)
        }
    }

    func testWrongKindsAreRejected() throws {
        var wrap = try GiftWrap.wrap(template: EventTemplate(kind: 14, content: "x"), from: alice, to: bob.publicKey)
        wrap.kind = 1060
        XCTAssertThrowsError(try GiftWrap.unwrap(wrap, recipient: bob)) { XCTAssertEqual(($0 as? NostrError)?.code, .wrongKind) }
        // A wrap whose inner event is a kind-1 note rather than a seal.
        let inner = try EventTemplate(kind: 1, content: try NIP44.encrypt(Array("{}".utf8), from: alice, to: bob.publicKey)).signed(by: alice)
        let oneTime = Secp256k1.PrivateKey()
        let bad = try EventTemplate(kind: 1059, content: try NIP44.encrypt(inner.jsonBytes, from: oneTime, to: bob.publicKey),
                                    tags: [["p", bob.publicKey.hex]]).signed(by: oneTime)
        XCTAssertThrowsError(try GiftWrap.unwrap(bad, recipient: bob)) { XCTAssertEqual(($0 as? NostrError)?.code, .wrongKind) }
    }

    func testBatchReportsEveryFailureAndKeepsGoing() throws {
        var wraps = [NostrEvent]()
        for i in 0..<5 { wraps.append(try GiftWrap.wrap(template: EventTemplate(kind: 14, content: "m\(i)"), from: alice, to: bob.publicKey)) }
        var forged = wraps[1]; forged.content = wraps[2].content          // signature no longer matches
        let foreign = try GiftWrap.wrap(template: EventTemplate(kind: 14, content: "not yours"), from: alice, to: mallory.publicKey)
        let batch = GiftWrap.unwrapBatch([forged] + wraps + [foreign, wraps[0]], recipient: bob)
        XCTAssertEqual(batch.successCount, 5)
        XCTAssertEqual(batch.failureCount, 2)
        XCTAssertEqual(Set(batch.succeeded.map(\.rumor.content)), Set((0..<5).map { "m\($0)" }))
        XCTAssertEqual(batch.failed.compactMap { ($0.error as? NostrError)?.code }.sorted { $0.rawValue < $1.rawValue },
                       [.invalidId, .notForRecipient])
    }
}
