import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitRelay
import InviteKitTestSupport
import XCTest

/// What the client does with relays that misbehave or demand NIP-42 authentication.
final class ScriptedRelayHostileInputTests: XCTestCase {
    var relays: [ScriptedRelay] = []
    var clients: [WebSocketRelayClient] = []
    let me = Secp256k1.PrivateKey()

    override func tearDown() async throws {
        for c in clients { await c.close() }
        for r in relays { r.stop() }
    }

    func testHostileRelayOutputIsReportedNeverDelivered() async throws {
        let good = TestEvents.note(me, "good")
        let bad = TestEvents.badSignature(TestEvents.note(me, "forged"))
        let off = TestEvents.note(me, "reaction", kind: 7)
        let extra = "{\"good\":\(good.jsonString),\"badsig\":\(bad.jsonString),\"offfilter\":\(off.jsonString)}"
        let relay = try ScriptedRelay(mode: "hostile", extra: extra)
        relays.append(relay)
        let c = WebSocketRelayClient(url: relay.url)
        clients.append(c)

        let sub = try await c.subscribe([NostrFilter(kinds: [1])])
        var items = [SubscriptionItem]()
        for await item in sub.items { items.append(item) }
        XCTAssertEqual(items.count, 6, "\(items)")
        guard items.count == 6 else { return }
        guard case .invalidEvent(let e1) = items[0], case .invalidEvent(let e2) = items[1] else { return XCTFail("\(items)") }
        XCTAssertEqual(e1.code, .invalidEvent)
        XCTAssertTrue(e1.detail.contains("signature"), e1.detail)
        XCTAssertTrue(e2.detail.contains("filters"), e2.detail)
        guard case .invalidEvent(let e3) = items[2] else { return XCTFail("\(items)") }
        XCTAssertTrue(e3.detail.contains("\"id\""), e3.detail)
        XCTAssertEqual(items[3], .event(good), "the duplicate copy is suppressed")
        XCTAssertEqual(items[4], .eose)
        XCTAssertEqual(items[5], .closed(message: "error: going away"))

        let stats = await c.stats
        XCTAssertEqual(stats.malformedMessages, 1)
        XCTAssertEqual(stats.invalidEvents, 3)
        XCTAssertEqual(stats.duplicateEvents, 1)
        XCTAssertEqual(stats.eventsForUnknownSubscriptions, 1)
        let errors = await c.protocolErrors
        XCTAssertEqual(errors.map(\.code), [.malformedMessage, .invalidEvent])
        let notices = await c.notices
        XCTAssertEqual(notices, ["hello from a hostile relay"])

        // An OK for an event we never sent is not taken for ours; the real answer is.
        let outcome = await c.publish(TestEvents.note(me, "x"), timeout: .seconds(5))
        guard case .rejected(let ok) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(ok.prefix, .blocked)
        let after = await c.stats
        XCTAssertEqual(after.unmatchedOKs, 1)
    }

    func testAuthRequiredIsAnsweredAndRetriedOnce() async throws {
        let relay = try ScriptedRelay(mode: "auth")
        relays.append(relay)

        // With a signer: the refused EVENT and the CLOSED REQ are retried after AUTH.
        let c = WebSocketRelayClient(url: relay.url, configuration: RelayClientConfiguration(authSigner: me))
        clients.append(c)
        let sub = try await c.subscribe([NostrFilter(kinds: [1])])
        let outcome = await c.publish(TestEvents.note(me, "needs auth"), timeout: .seconds(5))
        XCTAssertTrue(outcome.isAccepted, "\(outcome)")
        var first: SubscriptionItem?
        for await item in sub.items { first = item; break }
        XCTAssertEqual(first, .eose, "the REQ closed with auth-required was re-sent after AUTH")
        let stats = await c.stats
        XCTAssertEqual(stats.authAttempts, 1)
        let authed = await c.isAuthenticated
        XCTAssertTrue(authed)

        // Without a signer: the refusal is reported as it is.
        let anon = WebSocketRelayClient(url: relay.url)
        clients.append(anon)
        let refused = await anon.publish(TestEvents.note(me, "anon"), timeout: .seconds(5))
        guard case .rejected(let ok) = refused else { return XCTFail("\(refused)") }
        XCTAssertEqual(ok.prefix, .authRequired)
        let anonSub = try await anon.subscribe([NostrFilter(kinds: [1])])
        var anonItems = [SubscriptionItem]()
        for await item in anonSub.items { anonItems.append(item) }
        XCTAssertEqual(anonItems, [.closed(message: "auth-required: sign in first")])
    }
}
