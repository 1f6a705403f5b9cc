import Foundation
import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitRelay
import InviteKitRelayBench
import XCTest
import InviteKitTestSupport

/// Against the real relay (PyPI nostr-relay 1.14 via scripts/relay/run_relay.sh), one fresh relay
/// process and sqlite database per test.
final class RealRelayTests: XCTestCase {
    var relays: [RelayProcess] = []
    var clients: [WebSocketRelayClient] = []
    let alice = Secp256k1.PrivateKey()
    let bob = Secp256k1.PrivateKey()

    /// Fast reconnects so the kill/restart test does not wait long.
    let fast = RelayClientConfiguration(
        publishTimeout: .relayTimeout,
        reconnect: ReconnectPolicy(initialDelay: .milliseconds(100), maxDelay: .seconds(1)))

    func startRelay(dbDir: URL? = nil) throws -> RelayProcess {
        try RelayProcess.requireRelay()
        let r = try RelayProcess(dbDir: dbDir)
        relays.append(r)
        try r.start()
        return r
    }

    func client(_ relay: RelayProcess) -> WebSocketRelayClient {
        let c = WebSocketRelayClient(url: relay.url, configuration: fast)
        clients.append(c)
        return c
    }

    override func tearDown() async throws {
        for c in clients { await c.close() }
        for r in relays { r.tearDown() }
    }

    func testPublishGetsOKAndDuplicateCountsAsStored() async throws {
        let relay = try startRelay()
        let c = client(relay)
        let e = TestEvents.note(alice, "hello relay")
        guard case .accepted(let ok) = await c.publish(e) else { return XCTFail("not accepted") }
        XCTAssertEqual(ok.eventId, e.id)
        XCTAssertTrue(ok.accepted)
        // nostr-relay answers a duplicate with OK false "duplicate: exists": still stored.
        guard case .accepted(let dup) = await c.publish(e) else { return XCTFail("duplicate not treated as stored") }
        XCTAssertEqual(dup.prefix, .duplicate)
        let stats = await c.stats
        XCTAssertEqual(stats.connections, 1)
    }

    func testRejectionsAreTypedAndNothingIsDropped() async throws {
        let relay = try startRelay()
        let c = client(relay)
        let good1 = TestEvents.note(alice, "before")
        let bad = TestEvents.badSignature(TestEvents.note(alice, "forged"))
        let old = TestEvents.note(alice, "too old", createdAt: UnixTime.now() - 30 * 24 * 3600)
        let good2 = TestEvents.note(alice, "after")
        // All four in flight on one connection. nostr-relay answers a rejection with an EMPTY event id
        // (and then throttles the connection); the client must still give each event its own outcome.
        async let o1 = c.publish(good1, timeout: .seconds(30))
        try await Task.sleep(for: .milliseconds(20))
        async let o2 = c.publish(bad, timeout: .seconds(30))
        try await Task.sleep(for: .milliseconds(20))
        async let o3 = c.publish(old, timeout: .seconds(30))
        try await Task.sleep(for: .milliseconds(20))
        async let o4 = c.publish(good2, timeout: .seconds(30))
        let outcomes = await [o1, o2, o3, o4]
        XCTAssertTrue(outcomes[0].isAccepted, "\(outcomes[0])")
        guard case .rejected(let r2) = outcomes[1] else { return XCTFail("bad signature: \(outcomes[1])") }
        XCTAssertEqual(r2.prefix, .invalid)
        XCTAssertTrue(r2.message.contains("signature"), r2.message)
        XCTAssertEqual(outcomes[1].error?.code, .rejected)
        guard case .rejected(let r3) = outcomes[2] else { return XCTFail("old event: \(outcomes[2])") }
        XCTAssertEqual(r3.prefix, .invalid)
        XCTAssertTrue(r3.message.contains("too old"), r3.message)
        XCTAssertTrue(outcomes[3].isAccepted, "\(outcomes[3])")
        let pending = await c.pendingCount
        XCTAssertEqual(pending, 0)

        // What the relay holds is exactly the accepted events.
        let fetched = await RelayPool([client(relay)]).fetch([NostrFilter(authors: [alice.publicKey.hex])])
        XCTAssertEqual(Set(fetched.events.map(\.content)), ["before", "after"])
    }

    func testReqStoredThenEOSEThenLive() async throws {
        let relay = try startRelay()
        let writer = client(relay), reader = client(relay)
        let tag = TestEvents.uniqueTag()
        let now = UnixTime.now()
        let stored = (0..<3).map { TestEvents.note(alice, "s\($0)", tags: [["t", tag]], createdAt: now - 10 + Int64($0)) }
        for e in stored { await assertAccepted(writer, e) }
        _ = await writer.publish(TestEvents.note(alice, "unrelated"))

        let sub = try await reader.subscribe([NostrFilter(kinds: [1], tags: ["t": [tag]])])
        let before = await TestEvents.collectUntilEOSE(sub)
        XCTAssertEqual(Set(before), Set(stored))
        let items = ItemReader(sub)
        let live = TestEvents.note(bob, "live", tags: [["t", tag]])
        await assertAccepted(writer, live)
        let got = await items.nextEvent()
        XCTAssertEqual(got, live)
        await sub.close()
        let stats = await reader.stats
        XCTAssertEqual(stats.invalidEvents, 0)
    }

    func testGiftWrapCatchUpOfBackdatedWrapsWithoutSince() async throws {
        let relay = try startRelay()
        let c = client(relay)
        var sent = [NostrEvent]()
        for i in 0..<30 {
            let w = try GiftWrap.wrap(template: EventTemplate(kind: 14, content: "dm \(i)"), from: alice, to: bob.publicKey)
            sent.append(w)
            await assertAccepted(c, w)
        }
        let now = UnixTime.now()
        XCTAssertTrue(sent.contains { $0.createdAt < now - 3600 }, "wraps are back-dated (randomized up to 2 days)")
        // A hostile wrap for bob: stored by the relay, reported by the batch, never fatal.
        let hostile = try EventTemplate(kind: 1059, content: "garbage", tags: [["p", bob.publicKey.hex]]).signed(by: alice)
        await assertAccepted(c, hostile)

        let reader = WebSocketRelayClient(url: relay.url)
        clients.append(reader)
        nonisolated(unsafe) var handed: BatchResult<UnwrappedGift, NostrEvent>?
        let report = await GiftWrapCatchUp.run(pool: RelayPool([reader]), recipient: bob) { handed = $0 }
        XCTAssertEqual(report.fetch.completeRelays, [relay.url])
        XCTAssertEqual(report.fetch.events.count, 31)
        XCTAssertEqual(handed?.successCount, 30)
        XCTAssertEqual(handed?.failureCount, 1)
        XCTAssertEqual(Set(handed!.succeeded.map(\.rumor.content)), Set((0..<30).map { "dm \($0)" }))
        // The same filter with a `since` of one hour ago loses most of them: why catch-up never uses one.
        var withSince = GiftWrapCatchUp.filter(for: bob.publicKey)
        withSince.since = now - 3600
        let lossy = await RelayPool([reader]).fetch([withSince])
        XCTAssertLessThan(lossy.events.count, 31)
    }

    func testRelayKilledMidFlowAndRestartedLosesNothing() async throws {
        let relay = try startRelay()
        let port = relay.port
        let c = client(relay)
        let tag = TestEvents.uniqueTag()
        let sub = try await c.subscribe([NostrFilter(kinds: [1], tags: ["t": [tag]])])
        let items = ItemReader(sub)
        guard case .eose = await items.next() else { return XCTFail("expected EOSE") }

        let e1 = TestEvents.note(alice, "e1", tags: [["t", tag]])
        await assertAccepted(c, e1)
        let got1 = await items.nextEvent()
        XCTAssertEqual(got1, e1)

        relay.kill9()
        // Published while the relay is down: queued, not dropped.
        let e2 = TestEvents.note(alice, "e2", tags: [["t", tag]])
        async let o2 = c.publish(e2, timeout: .seconds(30))
        try await Task.sleep(for: .milliseconds(700))
        // Another writer stores e3 right after the restart: the re-subscribed REQ must bring it.
        try relay.start(port: port)
        let other = client(relay)
        let e3 = TestEvents.note(bob, "e3", tags: [["t", tag]])
        await assertAccepted(other, e3)
        let outcome2 = await o2
        XCTAssertTrue(outcome2.isAccepted, "\(outcome2)")

        var received = Set<String>()
        while received.count < 2, let e = await items.nextEvent(timeout: .seconds(20)) { received.insert(e.content) }
        XCTAssertEqual(received, ["e2", "e3"])
        // The re-REQ's stored events may arrive in any order (newest first on nostr-relay), so e1's
        // copy can come after e2 and e3: wait for it rather than reading the counters at once.
        await Poll.awaiting(timeout: .seconds(10)) { await c.stats.duplicateEvents > 0 }
        let stats = await c.stats
        XCTAssertGreaterThanOrEqual(stats.connections, 2)
        XCTAssertGreaterThanOrEqual(stats.disconnects, 1)
        XCTAssertGreaterThanOrEqual(stats.duplicateEvents, 1, "e1 came again after the re-REQ and was suppressed")

        // Everything is in the restarted relay's database.
        let all = await RelayPool([client(relay)]).fetch([NostrFilter(tags: ["t": [tag]])])
        XCTAssertEqual(Set(all.events.map(\.content)), ["e1", "e2", "e3"])
    }

    func testEventInFlightWhenRelayDiesIsResent() async throws {
        let relay = try startRelay()
        let port = relay.port
        let c = client(relay)
        try await c.connect()
        relay.kill9()
        // The client may not have noticed the drop yet: the event may be written to a dead socket.
        let e = TestEvents.note(alice, "in flight")
        async let outcome = c.publish(e, timeout: .seconds(30))
        try await Task.sleep(for: .milliseconds(500))
        try relay.start(port: port)
        let o = await outcome
        XCTAssertTrue(o.isAccepted, "\(o)")
        let all = await RelayPool([client(relay)]).fetch([NostrFilter(ids: [e.id])])
        XCTAssertEqual(all.events, [e])
    }

    func testUnreachableRelayTimesOutTypedNotSilently() async throws {
        let relay = try startRelay()
        let url = relay.url
        relay.stop()
        let c = WebSocketRelayClient(url: url, configuration: fast)
        clients.append(c)
        let o = await c.publish(TestEvents.note(alice, "nobody home"), timeout: .milliseconds(800))
        XCTAssertEqual(o, .timedOut(wasSent: false))
        XCTAssertEqual(o.error?.code, .timedOut)
        let pending = await c.pendingCount
        XCTAssertEqual(pending, 0, "the timed-out event is withdrawn, never sent later")
        do {
            try await WebSocketRelayClient(url: url, configuration: RelayClientConfiguration(reconnect: ReconnectPolicy(maxAttempts: 0))).connect()
            XCTFail("connect to a dead port succeeded")
        } catch { XCTAssertEqual(error.code, .connectionFailed) }
        let bad = await WebSocketRelayClient(url: "http://example.com").publish(TestEvents.note(alice, "x"))
        XCTAssertEqual(bad.error?.code, .invalidURL)
    }

    func testPoolPublishesToTwoRelays() async throws {
        let r1 = try startRelay(), r2 = try startRelay()
        let pool = RelayPool([client(r1), client(r2)])
        let e = TestEvents.note(alice, "to both")
        let result = await pool.publish(e)
        XCTAssertEqual(Set(result.succeeded.map(\.relay)), [r1.url, r2.url])
        XCTAssertEqual(result.failureCount, 0)
        let fetched = await pool.fetch([NostrFilter(ids: [e.id])])
        XCTAssertEqual(fetched.events, [e], "deduplicated across relays")
        XCTAssertEqual(fetched.completeRelays, [r1.url, r2.url])
    }

    func testBenchRoundTrip() async throws {
        let relay = try startRelay()
        let report = try await RelayBench.run(relayURL: relay.url, count: 200)
        print(report)
        XCTAssertEqual(report.accepted, 200)
        XCTAssertEqual(report.fetched, 200)
        XCTAssertEqual(report.unwrapped, 200)
        XCTAssertEqual(report.unwrapFailures, 0)
    }
}

/// NIP-42 against nostr-relay with authentication enabled.
final class RealRelayAuthTests: XCTestCase {
    var relay: RelayProcess?
    var clients: [WebSocketRelayClient] = []

    override func tearDown() async throws {
        for c in clients { await c.close() }
        relay?.tearDown()
    }

    func testAnswersAuthChallengeAndRelayChecksIt() async throws {
        try RelayProcess.requireRelay()
        let r = try RelayProcess()
        r.requireAuth = true
        r.environment = ["RELAY_LOG_LEVEL": "INFO"]
        relay = r
        try r.start()
        let me = Secp256k1.PrivateKey()

        let c = WebSocketRelayClient(url: r.url, configuration: RelayClientConfiguration(authSigner: me))
        clients.append(c)
        await assertAccepted(c, TestEvents.note(me, "after auth"))
        // The challenge comes right after the connection opens; give the AUTH a moment to be processed.
        let authenticatedInLog = await Poll.awaiting(timeout: .seconds(5)) { r.log.contains("Authenticated \(me.publicKey.hex)") }
        XCTAssertTrue(authenticatedInLog, "relay did not accept our AUTH event")
        let stats = await c.stats
        XCTAssertEqual(stats.authAttempts, 1)
        let authed = await c.isAuthenticated
        XCTAssertTrue(authed)

        // Signed for the wrong relay URL: the relay refuses it (its NOTICE reaches `notices`).
        let wrongURL = "ws://localhost:\(r.port)"
        let w = WebSocketRelayClient(url: wrongURL, configuration: RelayClientConfiguration(authSigner: me))
        clients.append(w)
        try await w.connect()
        await Poll.awaiting(timeout: .seconds(5)) { await !w.notices.isEmpty }
        let notices = await w.notices
        XCTAssertTrue(notices.contains { $0.contains("Wrong domain") }, "\(notices)")

        // Without a signer the challenge is recorded and not answered.
        let anon = WebSocketRelayClient(url: r.url)
        clients.append(anon)
        await assertAccepted(anon, TestEvents.note(me, "anonymous"))
        let anonStats = await anon.stats
        XCTAssertEqual(anonStats.authAttempts, 0)
    }
}
