import InviteKit
import XCTest
import InviteKitTestSupport

/// The Marmot policy flows over relays (gated Welcome release, KeyPackage fetch), which live in the
/// InviteKit layer because the kinds and the ordering rule are Marmot's, not NIP-01's.
final class MarmotRelayFlowTests: XCTestCase {
    let a = Secp256k1.PrivateKey()
    let b = Secp256k1.PrivateKey()
    let me = Secp256k1.PrivateKey()


    func testGatedPublishWithholdsUntilStored() async throws {
        let r1 = InMemoryRelay(url: "memory://1"), r2 = InMemoryRelay(url: "memory://2")
        for r in [r1, r2] { await r.setPolicy { $0.kind == 445 ? .reject("blocked: commits off") : .accept } }
        let pool = RelayPool([r1, r2])
        let commit = TestEvents.note(a, "commit", kind: 445)
        let welcome = try GiftWrap.wrap(template: EventTemplate(kind: 444, content: "welcome"), from: a, to: me.publicKey)
        let withheld = await GatedPublish.publish(commit, thenPublish: [welcome], to: pool)
        guard case .withheld(let gate) = withheld else { return XCTFail("welcome released without a stored commit") }
        XCTAssertEqual(gate.failureCount, 2)
        var wraps = await r1.events(matching: [NostrFilter(kinds: [1059])])
        XCTAssertTrue(wraps.isEmpty, "the welcome must not reach any relay")

        await r1.setPolicy(nil)  // one relay now stores the commit: that is enough
        let released = await GatedPublish.publish(commit, thenPublish: [welcome], to: pool)
        guard case .released(let gate2, let welcomes) = released else { return XCTFail("welcome withheld") }
        XCTAssertEqual(gate2.successCount, 1)
        XCTAssertEqual(welcomes.count, 1)
        XCTAssertEqual(welcomes[0].successCount, 2)
        wraps = await r2.events(matching: [NostrFilter(kinds: [1059])])
        XCTAssertEqual(wraps, [welcome])

        // The closure form never runs when withheld.
        await r1.setPolicy { _ in .reject("blocked: x") }
        let ran = await GatedPublish.publish(TestEvents.note(a, "c2", kind: 445), to: pool) { true }
        XCTAssertNil(ran.releasedValue)
    }

    func testKeyPackageFetchThroughPool() async throws {
        let relay = InMemoryRelay()
        let pool = RelayPool([relay])
        let k1 = TestEvents.note(a, "k1", kind: 30443, tags: [["d", "1"]], createdAt: 100)
        let k2 = TestEvents.note(a, "k2", kind: 30443, tags: [["d", "2"]], createdAt: 200)
        let legacy = TestEvents.note(a, "old", kind: 443, createdAt: 50)
        for e in [k1, k2, legacy] { _ = await pool.publish(e) }
        let (events, fetch) = await KeyPackageFetch.fetch(from: pool, author: a.publicKey)
        XCTAssertEqual(events.map(\.content), ["k2", "k1", "old"])
        XCTAssertTrue(fetch.isCompleteSomewhere)
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
}
