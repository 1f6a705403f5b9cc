import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitRelay
import InviteKitTestSupport
import XCTest

final class NostrFilterTests: XCTestCase {
    let a = Secp256k1.PrivateKey()
    let b = Secp256k1.PrivateKey()

    func testJSONRoundTripAndKeyOrder() throws {
        let f = NostrFilter(ids: [String(repeating: "a", count: 64)], authors: [a.publicKey.hex], kinds: [1, 30443],
                            tags: ["p": ["x"], "e": ["y", "z"], "d": ["w"]], since: 10, until: 20, limit: 5)
        let json = f.jsonString
        XCTAssertTrue(json.hasPrefix("{\"ids\":"))
        XCTAssertTrue(json.contains("\"#d\":[\"w\"],\"#e\":[\"y\",\"z\"],\"#p\":[\"x\"],\"since\":10,\"until\":20,\"limit\":5}"))
        XCTAssertEqual(try NostrFilter(json: json), f)
        XCTAssertEqual(try NostrFilter(json: "{}"), NostrFilter())
        XCTAssertEqual(try NostrFilter(json: "{\"#h\":[\"g\"]}").tags, ["h": ["g"]])
    }

    func testMatching() {
        let e = TestEvents.note(a, "x", kind: 445, tags: [["h", "group"], ["p", b.publicKey.hex], ["e", "ref"]], createdAt: 1000)
        XCTAssertTrue(NostrFilter().matches(e))
        XCTAssertTrue(NostrFilter(ids: [e.id]).matches(e))
        XCTAssertFalse(NostrFilter(ids: []).matches(e), "an empty list matches nothing")
        XCTAssertFalse(NostrFilter(ids: [String(repeating: "0", count: 64)]).matches(e))
        XCTAssertTrue(NostrFilter(authors: [b.publicKey.hex, a.publicKey.hex]).matches(e))
        XCTAssertFalse(NostrFilter(authors: [b.publicKey.hex]).matches(e))
        XCTAssertTrue(NostrFilter(kinds: [1, 445]).matches(e))
        XCTAssertFalse(NostrFilter(kinds: [1]).matches(e))
        XCTAssertTrue(NostrFilter(tags: ["h": ["group"]]).matches(e))
        XCTAssertTrue(NostrFilter(tags: ["h": ["other", "group"], "p": [b.publicKey.hex]]).matches(e))
        XCTAssertFalse(NostrFilter(tags: ["h": ["group"], "p": [a.publicKey.hex]]).matches(e), "tag filters AND together")
        XCTAssertFalse(NostrFilter(tags: ["d": ["group"]]).matches(e))
        XCTAssertTrue(NostrFilter(since: 1000, until: 1000).matches(e))
        XCTAssertFalse(NostrFilter(since: 1001).matches(e))
        XCTAssertFalse(NostrFilter(until: 999).matches(e))
        XCTAssertTrue(NostrFilter(limit: 0).matches(e), "limit does not affect matching")
        XCTAssertTrue([NostrFilter(kinds: [1]), NostrFilter(kinds: [445])].anyMatches(e))
        XCTAssertFalse([NostrFilter]().anyMatches(e))
    }

    func testGiftWrapFilterHasNoSince() {
        let f = GiftWrapCatchUp.filter(for: b.publicKey)
        XCTAssertNil(f.since)
        XCTAssertNil(f.until)
        XCTAssertEqual(f.kinds, [1059])
        XCTAssertEqual(f.tags, ["p": [b.publicKey.hex]])
        XCTAssertFalse(f.jsonString.contains("since"))
    }

    func testDeletionTemplate() {
        let kp = TestEvents.note(a, "kp", kind: 30443, tags: [["d", "dd"]])
        let note = TestEvents.note(a, "n")
        let t = EventDeletion.template(deleting: [kp, note], reason: "used")
        XCTAssertEqual(t.kind, 5)
        XCTAssertEqual(t.content, "used")
        XCTAssertEqual(t.tags, [["e", kp.id], ["a", "30443:\(a.publicKey.hex):dd"], ["e", note.id], ["k", "30443"], ["k", "1"]])
    }
}
