import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitRelay
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

    func testKeyPackageFilterAndNewestPerD() {
        XCTAssertEqual(KeyPackageFetch.filter(author: a.publicKey), NostrFilter(authors: [a.publicKey.hex], kinds: [30443, 443]))
        let old = TestEvents.note(a, "old", kind: 30443, tags: [["d", "one"]], createdAt: 100)
        let new = TestEvents.note(a, "new", kind: 30443, tags: [["d", "one"]], createdAt: 200)
        let other = TestEvents.note(a, "other", kind: 30443, tags: [["d", "two"]], createdAt: 150)
        let legacy = TestEvents.note(a, "legacy", kind: 443, createdAt: 50)
        let foreign = TestEvents.note(b, "foreign", kind: 30443, tags: [["d", "one"]], createdAt: 300)
        let wrongKind = TestEvents.note(a, "note", kind: 1, createdAt: 400)
        let kept = KeyPackageFetch.newestPerAddress([old, new, other, legacy, foreign, wrongKind, old], author: a.publicKey)
        XCTAssertEqual(kept.map(\.content), ["new", "other", "legacy"])
        // Equal created_at: the smallest id wins.
        let t1 = TestEvents.note(a, "t1", kind: 30443, tags: [["d", "t"]], createdAt: 500)
        let t2 = TestEvents.note(a, "t2", kind: 30443, tags: [["d", "t"]], createdAt: 500)
        XCTAssertEqual(KeyPackageFetch.newestPerAddress([t1, t2], author: a.publicKey).map(\.id), [min(t1.id, t2.id)])
        XCTAssertEqual(KeyPackageFetch.newestPerAddress([t2, t1], author: a.publicKey).map(\.id), [min(t1.id, t2.id)])
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
