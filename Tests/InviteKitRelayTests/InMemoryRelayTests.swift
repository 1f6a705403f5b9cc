import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitRelay
import InviteKitTestSupport
import XCTest

final class InMemoryRelayTests: XCTestCase {
    let a = Secp256k1.PrivateKey()
    let b = Secp256k1.PrivateKey()

    func testPublishAcknowledgesAndStores() async {
        let relay = InMemoryRelay()
        let e = TestEvents.note(a, "hello")
        guard case .accepted(let ok) = await relay.publish(e) else { return XCTFail("not accepted") }
        XCTAssertEqual(ok.eventId, e.id)
        XCTAssertTrue(ok.accepted)
        guard case .accepted(let dup) = await relay.publish(e) else { return XCTFail("duplicate not accepted") }
        XCTAssertEqual(dup.prefix, .duplicate)
        let stored = await relay.storedEvents
        XCTAssertEqual(stored, [e])
    }

    func testRejectsBadIdAndSignatureTyped() async {
        let relay = InMemoryRelay()
        let e = TestEvents.note(a, "hello")
        let badSig = await relay.publish(TestEvents.badSignature(e))
        guard case .rejected(let ok) = badSig else { return XCTFail("bad signature accepted: \(badSig)") }
        XCTAssertEqual(ok.prefix, .invalid)
        XCTAssertEqual(badSig.error?.code, .rejected)
        var badId = e
        badId.content = "tampered"
        guard case .rejected(let ok2) = await relay.publish(badId) else { return XCTFail("bad id accepted") }
        XCTAssertEqual(ok2.prefix, .invalid)
        let stored = await relay.storedEvents
        XCTAssertTrue(stored.isEmpty)
        let log = await relay.log
        XCTAssertEqual(log.count, 2, "every offer is logged with its outcome")
    }

    func testReplaceableAndAddressableSemantics() async {
        let relay = InMemoryRelay()
        let r1 = TestEvents.note(a, "v1", kind: 10002, createdAt: 100)
        let r2 = TestEvents.note(a, "v2", kind: 10002, createdAt: 200)
        let r0 = TestEvents.note(a, "v0", kind: 10002, createdAt: 50)
        let rb = TestEvents.note(b, "b", kind: 10002, createdAt: 10)
        for e in [r1, r2, r0, rb] { _ = await relay.publish(e) }
        var got = await relay.events(matching: [NostrFilter(kinds: [10002])])
        XCTAssertEqual(Set(got.map(\.content)), ["v2", "b"], "newest per pubkey+kind; another author is separate")

        let k1 = TestEvents.note(a, "one-old", kind: 30443, tags: [["d", "one"]], createdAt: 100)
        let k2 = TestEvents.note(a, "one-new", kind: 30443, tags: [["d", "one"]], createdAt: 200)
        let k3 = TestEvents.note(a, "two", kind: 30443, tags: [["d", "two"]], createdAt: 150)
        for e in [k2, k1, k3] { _ = await relay.publish(e) }
        got = await relay.events(matching: [NostrFilter(kinds: [30443])])
        XCTAssertEqual(got.map(\.content), ["one-new", "two"], "newest per pubkey+kind+d, newest first")

        // Ephemeral: delivered live, not stored.
        let sub = try! await relay.subscribe([NostrFilter(kinds: [20001])])
        let eph = TestEvents.note(a, "now", kind: 20001)
        let outcome = await relay.publish(eph)
        XCTAssertTrue(outcome.isAccepted)
        let reader = ItemReader(sub)
        guard case .eose = await reader.next() else { return XCTFail("expected EOSE first") }
        let live = await reader.nextEvent(timeout: .seconds(2))
        XCTAssertEqual(live, eph)
        let eph2 = await relay.events(matching: [NostrFilter(kinds: [20001])])
        XCTAssertTrue(eph2.isEmpty)
    }

    func testDeletionRemovesOwnEventsOnly() async throws {
        let relay = InMemoryRelay()
        let mine = TestEvents.note(a, "mine")
        let theirs = TestEvents.note(b, "theirs")
        let kp = TestEvents.note(a, "kp", kind: 30443, tags: [["d", "x"]])
        for e in [mine, theirs, kp] { _ = await relay.publish(e) }
        let (_, result) = try await EventDeletion.delete([mine, kp], author: a, via: RelayPool([relay]))
        XCTAssertEqual(result.successCount, 1)
        let forged = try EventTemplate(kind: 5, content: "", tags: [["e", theirs.id]]).signed(by: a)
        _ = await relay.publish(forged)
        let left = await relay.events(matching: [NostrFilter(kinds: [1, 30443])])
        XCTAssertEqual(left.map(\.content), ["theirs"])
        guard case .rejected(let ok) = await relay.publish(mine) else { return XCTFail("deleted event came back") }
        XCTAssertEqual(ok.prefix, .blocked)
        do {
            _ = try await EventDeletion.delete([theirs], author: a, via: RelayPool([relay]))
            XCTFail("deleting another author's event must be refused")
        } catch let e as NostrError { XCTAssertEqual(e.code, .invalidKey) }
    }

    func testSubscribeStoredThenEOSEThenLive() async throws {
        let relay = InMemoryRelay()
        let tag = TestEvents.uniqueTag()
        let old = [TestEvents.note(a, "1", tags: [["t", tag]], createdAt: 100), TestEvents.note(a, "2", tags: [["t", tag]], createdAt: 200)]
        for e in old { _ = await relay.publish(e) }
        _ = await relay.publish(TestEvents.note(a, "other"))
        let sub = try await relay.subscribe([NostrFilter(tags: ["t": [tag]])])
        let stored = await TestEvents.collectUntilEOSE(sub)
        XCTAssertEqual(stored.map(\.content), ["2", "1"])
        let reader = ItemReader(sub)
        let live = TestEvents.note(b, "3", tags: [["t", tag]])
        _ = await relay.publish(live)
        let got = await reader.nextEvent(timeout: .seconds(2))
        XCTAssertEqual(got, live)
        await sub.close()
        let count = await relay.subscriptionCount
        XCTAssertEqual(count, 0)
    }

    func testLimitAppliesPerFilterNewestFirst() async throws {
        let relay = InMemoryRelay()
        for i in 0..<5 { _ = await relay.publish(TestEvents.note(a, "\(i)", createdAt: Int64(100 + i))) }
        let got = await relay.events(matching: [NostrFilter(kinds: [1], limit: 2)])
        XCTAssertEqual(got.map(\.content), ["4", "3"])
    }

    func testPolicyRejectsAndSwallows() async {
        let relay = InMemoryRelay()
        await relay.setPolicy { $0.content == "no" ? .reject("blocked: not today") : $0.content == "lost" ? .swallow : .accept }
        guard case .rejected(let ok) = await relay.publish(TestEvents.note(a, "no")) else { return XCTFail() }
        XCTAssertEqual(ok.prefix, .blocked)
        let lost = await relay.publish(TestEvents.note(a, "lost"), timeout: .milliseconds(20))
        XCTAssertEqual(lost, .timedOut(wasSent: true))
        let yes = await relay.publish(TestEvents.note(a, "yes"))
        XCTAssertTrue(yes.isAccepted)
        let stored = await relay.storedEvents
        XCTAssertEqual(stored.map(\.content), ["yes"])
    }

    func testRelayCanEndASubscription() async throws {
        let relay = InMemoryRelay()
        let sub = try await relay.subscribe([NostrFilter()])
        await relay.closeSubscription(sub.id, message: "error: shutting down")
        var items = [SubscriptionItem]()
        for await item in sub.items { items.append(item) }
        XCTAssertEqual(items, [.eose, .closed(message: "error: shutting down")])
    }
}
