import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitRelay
import InviteKitTestSupport
import XCTest

final class RelayPoolTests: XCTestCase {
    let a = Secp256k1.PrivateKey()
    let me = Secp256k1.PrivateKey()

    func testPublishReportsEachRelay() async {
        let r1 = InMemoryRelay(url: "memory://1"), r2 = InMemoryRelay(url: "memory://2"), r3 = InMemoryRelay(url: "memory://3")
        await r2.setPolicy { _ in .reject("blocked: no") }
        await r3.setPolicy { _ in .swallow }
        let pool = RelayPool([r1, r2, r3])
        let result = await pool.publish(TestEvents.note(a, "x"), timeout: .milliseconds(50))
        XCTAssertEqual(result.succeeded.map(\.relay), ["memory://1"])
        XCTAssertEqual(result.failed.map(\.input), ["memory://2", "memory://3"])
        XCTAssertEqual(result.failed.map { ($0.error as? RelayError)?.code }, [.rejected, .timedOut])
        XCTAssertEqual((result.failed[0].error as? RelayError)?.detail, "blocked: no")
        XCTAssertEqual(result.total, 3)
    }

    func testSubscriptionsMergeAndDeduplicate() async {
        let r1 = InMemoryRelay(url: "memory://1"), r2 = InMemoryRelay(url: "memory://2")
        let shared = TestEvents.note(a, "both")
        let only1 = TestEvents.note(a, "one")
        for r in [r1, r2] { _ = await r.publish(shared) }
        _ = await r1.publish(only1)
        let pool = RelayPool([r1, r2])
        let fetched = await pool.fetch([NostrFilter(kinds: [1])], timeout: .seconds(2))
        XCTAssertEqual(Set(fetched.events.map(\.content)), ["both", "one"])
        XCTAssertEqual(fetched.events.count, 2)
        XCTAssertEqual(fetched.completeRelays, ["memory://1", "memory://2"])
        XCTAssertTrue(fetched.incompleteRelays.isEmpty)

        // Live: an event published to both relays is delivered once.
        let sub = await pool.subscribe([NostrFilter(kinds: [1])])
        var iterator = sub.items.makeAsyncIterator()
        var seenAllEOSE = false
        while !seenAllEOSE, let item = await iterator.next() { if case .allEOSE = item { seenAllEOSE = true } }
        let live = TestEvents.note(a, "live")
        _ = await pool.publish(live)
        let marker = TestEvents.note(a, "marker")
        _ = await r2.publish(marker)
        var liveEvents = [String]()
        while let item = await iterator.next() {
            if case .event(let e, _) = item { liveEvents.append(e.content); if e.content == "marker" { break } }
        }
        XCTAssertEqual(liveEvents, ["live", "marker"])
        await sub.close()
    }

    func testGiftWrapCatchUpInMemory() async throws {
        let relay = InMemoryRelay()
        let pool = RelayPool([relay, InMemoryRelay(url: "memory://copy")])
        var sent = [NostrEvent]()
        for i in 0..<5 {
            let w = try GiftWrap.wrap(template: EventTemplate(kind: 14, content: "m\(i)"), from: a, to: me.publicKey)
            sent.append(w)
            _ = await pool.publish(w)
        }
        // A hostile wrap addressed to me: reported, never stops the batch.
        let hostile = try EventTemplate(kind: 1059, content: "not nip44", tags: [["p", me.publicKey.hex]]).signed(by: a)
        _ = await relay.publish(hostile)
        // A wrap for someone else is not fetched at all.
        _ = await relay.publish(try GiftWrap.wrap(template: EventTemplate(kind: 14, content: "x"), from: a, to: a.publicKey))

        nonisolated(unsafe) var handed: BatchResult<UnwrappedGift, NostrEvent>?
        let report = await GiftWrapCatchUp.run(pool: pool, recipient: me) { handed = $0 }
        XCTAssertEqual(report.fetch.events.count, 6, "deduplicated across the two relays")
        XCTAssertEqual(handed?.successCount, 5)
        XCTAssertEqual(handed?.failureCount, 1)
        XCTAssertEqual(handed?.failed.first?.input, hostile)
        XCTAssertEqual(Set(handed!.succeeded.map(\.rumor.content)), Set((0..<5).map { "m\($0)" }))
        XCTAssertTrue(handed!.succeeded.allSatisfy { $0.sender == a.publicKey })
    }

    func testFollowDeliversStoredBatchThenLive() async throws {
        let relay = InMemoryRelay()
        let pool = RelayPool([relay])
        _ = await pool.publish(try GiftWrap.wrap(template: EventTemplate(kind: 14, content: "stored"), from: a, to: me.publicKey))
        let (batches, sink) = AsyncStream<[String]>.makeStream()
        let task = Task { [me] in
            await GiftWrapCatchUp.follow(pool: pool, recipient: me) { sink.yield($0.succeeded.map(\.rumor.content)) }
        }
        var it = batches.makeAsyncIterator()
        let first = await it.next()
        XCTAssertEqual(first, ["stored"])
        _ = await pool.publish(try GiftWrap.wrap(template: EventTemplate(kind: 14, content: "live"), from: a, to: me.publicKey))
        let second = await it.next()
        XCTAssertEqual(second, ["live"])
        task.cancel()
    }

    func testRelayThatCannotSubscribeIsReportedNotThrown() async {
        let good = InMemoryRelay(url: "memory://good")
        _ = await good.publish(TestEvents.note(a, "x"))
        let pool = RelayPool([good, WebSocketRelayClient(url: "https://not-a-relay.example")])
        let fetched = await pool.fetch([NostrFilter(kinds: [1])], timeout: .seconds(2))
        XCTAssertEqual(fetched.events.count, 1)
        XCTAssertEqual(fetched.completeRelays, ["memory://good"])
        XCTAssertEqual(fetched.incompleteRelays["https://not-a-relay.example"]?.code, .subscriptionClosed)
        XCTAssertTrue(fetched.incompleteRelays["https://not-a-relay.example"]?.detail.contains("relay_invalid_url") ?? false)
        let published = await pool.publish(TestEvents.note(a, "y"))
        XCTAssertEqual(published.successCount, 1)
        XCTAssertEqual((published.failed.first?.error as? RelayError)?.code, .invalidURL)
        XCTAssertEqual(RelayPool(urls: ["ws://a.example", "ws://a.example", "wss://b.example"]).urls, ["ws://a.example", "wss://b.example"])
    }
}
