import Foundation
import InviteKit
import InviteKitTestSupport
import XCTest

/// The Marmot relay flows against the real relay (PyPI nostr-relay 1.14), one fresh relay per test.
final class MarmotRelayFlowRealRelayTests: XCTestCase {
    var relays: [RelayProcess] = []
    var clients: [WebSocketRelayClient] = []
    let alice = Secp256k1.PrivateKey()
    let bob = Secp256k1.PrivateKey()

    func startRelay() throws -> RelayProcess {
        try RelayProcess.requireRelay()
        let r = try RelayProcess(dbDir: nil)
        relays.append(r)
        try r.start()
        return r
    }

    func client(_ relay: RelayProcess) -> WebSocketRelayClient {
        let c = WebSocketRelayClient(url: relay.url, configuration: RelayClientConfiguration(
            publishTimeout: .relayTimeout, reconnect: ReconnectPolicy(initialDelay: .milliseconds(100), maxDelay: .seconds(1))))
        clients.append(c)
        return c
    }

    override func tearDown() async throws {
        for c in clients { await c.close() }
        for r in relays { r.tearDown() }
    }


    func testGateOpensWhenOneOfTwoRelaysStores() async throws {
        let r1 = try startRelay(), r2 = try startRelay()
        let pool = RelayPool([client(r1), client(r2)])
        // One relay down: its failure is reported, the other's OK still counts; the gate opens.
        r2.kill9()
        let commit = TestEvents.note(alice, "commit", kind: 445, tags: [["h", "g"]])
        let welcome = try GiftWrap.wrap(template: EventTemplate(kind: 444, content: "welcome"), from: alice, to: bob.publicKey)
        let gated = await GatedPublish.publish(commit, thenPublish: [welcome], to: pool, timeout: .seconds(2))
        guard case .released(let gate, let followers) = gated else { return XCTFail("withheld with one relay up") }
        XCTAssertEqual(gate.succeeded.map(\.relay), [r1.url])
        XCTAssertEqual(gate.failed.map(\.input), [r2.url])
        XCTAssertEqual((gate.failed.first?.error as? RelayError)?.code, .timedOut)
        XCTAssertEqual(followers.first?.successCount, 1)
    }

    func testGateWithheldWhenRelayRejects() async throws {
        let relay = try startRelay()
        let pool = RelayPool([client(relay)])
        let badCommit = TestEvents.badSignature(TestEvents.note(alice, "commit", kind: 445))
        let welcome = try GiftWrap.wrap(template: EventTemplate(kind: 444, content: "welcome"), from: alice, to: bob.publicKey)
        let gated = await GatedPublish.publish(badCommit, thenPublish: [welcome], to: pool, timeout: .relayTimeout)
        guard case .withheld(let gate) = gated else { return XCTFail("released after a rejection") }
        XCTAssertEqual((gate.failed.first?.error as? RelayError)?.code, .rejected)
        let wraps = await RelayPool([client(relay)]).fetch([GiftWrapCatchUp.filter(for: bob.publicKey)])
        XCTAssertTrue(wraps.events.isEmpty, "the welcome never reached the relay")
    }

    func testKeyPackagesFetchNewestPerDAndDelete() async throws {
        let relay = try startRelay()
        let pool = RelayPool([client(relay)])
        let now = UnixTime.now()
        let d1 = Hex.encode(SystemRandom().bytes(32)), d2 = Hex.encode(SystemRandom().bytes(32))
        let older = TestEvents.note(alice, "kp1-old", kind: 30443, tags: [["d", d1]], createdAt: now - 100)
        let newer = TestEvents.note(alice, "kp1-new", kind: 30443, tags: [["d", d1]], createdAt: now - 50)
        let second = TestEvents.note(alice, "kp2", kind: 30443, tags: [["d", d2]], createdAt: now - 10)
        // Older first and newer after: nostr-relay replaces; newer first and older after: it keeps both.
        for e in [older, newer, second] { let n = await pool.publish(e).successCount; XCTAssertEqual(n, 1) }
        _ = await pool.publish(TestEvents.note(alice, "kp1-older-late", kind: 30443, tags: [["d", d1]], createdAt: now - 200))
        var (events, _) = await KeyPackageFetch.fetch(from: pool, author: alice.publicKey)
        XCTAssertEqual(events.map(\.content), ["kp2", "kp1-new"])

        let (deletion, result) = try await EventDeletion.delete([second], author: alice, reason: "consumed", via: pool)
        XCTAssertEqual(result.successCount, 1)
        XCTAssertEqual(deletion.kind, 5)
        (events, _) = await KeyPackageFetch.fetch(from: pool, author: alice.publicKey)
        XCTAssertEqual(events.map(\.content), ["kp1-new"])
    }
}
