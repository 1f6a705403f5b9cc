import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitRelay
import XCTest

/// The relay client's rules, driven without sockets: each test feeds inputs and checks the actions.
final class RelayConnectionStateMachineTests: XCTestCase {
    typealias Machine = RelayConnectionStateMachine

    let key = try! Secp256k1.PrivateKey(rawRepresentation: [UInt8](repeating: 7, count: 32))

    func event(_ content: String) throws -> NostrEvent {
        try EventTemplate(kind: 1, content: content, createdAt: 1_700_000_000).signed(by: key, using: SeededRandom(seed: 1))
    }

    func machine(_ config: RelayClientConfiguration = RelayClientConfiguration()) -> Machine {
        Machine(url: "ws://relay.test", configuration: config, random: SeededRandom(seed: 9))
    }

    func okText(_ id: String, _ accepted: Bool, _ message: String = "") -> String {
        "[\"OK\",\"\(id)\",\(accepted),\"\(message)\"]"
    }

    func testPublishWhileIdleQueuesOpensAndSendsOnOpen() throws {
        var m = machine()
        let e = try event("hello")
        XCTAssertEqual(m.publishRequested(token: 0, event: e), [.openConnection])
        XCTAssertEqual(m.state, .connecting)
        XCTAssertEqual(m.connectionOpened(), [.send(.event(e))])
        XCTAssertEqual(m.textReceived(okText(e.id, true)), [.completePublish(token: 0, .accepted(OKMessage(eventId: e.id, accepted: true, message: "")))])
        XCTAssertEqual(m.awaitedCount, 0)
    }

    func testDropResendsUnacknowledgedEventsAfterBackoff() throws {
        var m = machine()
        let e = try event("resend me")
        _ = m.publishRequested(token: 0, event: e)
        _ = m.connectionOpened()
        let afterDrop = m.connectionDropped(reason: "reset")
        guard case .scheduleReconnect = afterDrop.last else { return XCTFail("no reconnect scheduled: \(afterDrop)") }
        XCTAssertEqual(m.state, .backingOff)
        XCTAssertEqual(m.reconnectDue(), [.openConnection])
        XCTAssertEqual(m.connectionOpened(), [.send(.event(e))])
        XCTAssertEqual(m.stats.resentEvents, 1)
        XCTAssertEqual(m.stats.disconnects, 1)
    }

    func testEmptyIdOKGoesToOldestSentEvent() throws {
        var m = machine()
        let a = try event("a"), b = try event("b")
        _ = m.connectionOpened() // not connecting: ignored
        _ = m.publishRequested(token: 0, event: a)
        _ = m.publishRequested(token: 1, event: b)
        _ = m.connectionOpened()
        let actions = m.textReceived(okText("", false, "blocked: no"))
        XCTAssertEqual(actions, [.completePublish(token: 0, .rejected(OKMessage(eventId: "", accepted: false, message: "blocked: no")))])
    }

    func testTimedOutSentEventKeepsPlaceholderSoLateOKIsNotMisassigned() throws {
        var m = machine()
        let a = try event("a"), b = try event("b")
        _ = m.publishRequested(token: 0, event: a)
        _ = m.connectionOpened()
        XCTAssertEqual(m.publishTimedOut(token: 0), [.completePublish(token: 0, .timedOut(wasSent: true))])
        _ = m.publishRequested(token: 1, event: b)
        // The late empty-id OK belongs to `a`'s placeholder, not to `b`.
        XCTAssertEqual(m.textReceived(okText("", true)), [])
        XCTAssertEqual(m.awaitedCount, 1)
    }

    func testUnsentTimedOutEventIsWithdrawn() throws {
        var m = machine()
        _ = m.publishRequested(token: 0, event: try event("a"))
        XCTAssertEqual(m.publishTimedOut(token: 0), [.completePublish(token: 0, .timedOut(wasSent: false))])
        XCTAssertEqual(m.connectionOpened(), [])
    }

    func testSubscriptionSurvivesReconnectAndDeliversEOSEOnce() throws {
        var m = machine()
        let filters = [NostrFilter(kinds: [1])]
        XCTAssertEqual(m.subscribeRequested(id: "s", filters: filters), [.openConnection])
        XCTAssertEqual(m.connectionOpened(), [.send(.req(subscriptionId: "s", filters: filters))])
        let e = try event("x")
        XCTAssertEqual(m.textReceived("[\"EVENT\",\"s\",\(String(decoding: e.jsonBytes, as: UTF8.self))]"), [.deliver(subscription: "s", .event(e))])
        XCTAssertEqual(m.textReceived("[\"EOSE\",\"s\"]"), [.deliver(subscription: "s", .eose)])
        _ = m.connectionDropped(reason: "gone")
        _ = m.reconnectDue()
        XCTAssertEqual(m.connectionOpened(), [.send(.req(subscriptionId: "s", filters: filters))])
        XCTAssertEqual(m.textReceived("[\"EVENT\",\"s\",\(String(decoding: e.jsonBytes, as: UTF8.self))]"), [], "already delivered")
        XCTAssertEqual(m.textReceived("[\"EOSE\",\"s\"]"), [], "EOSE is delivered once")
        XCTAssertEqual(m.stats.duplicateEvents, 1)
    }

    func testGiveUpAfterMaxAttemptsFailsEverything() throws {
        var m = machine(RelayClientConfiguration(reconnect: ReconnectPolicy(maxAttempts: 0)))
        _ = m.publishRequested(token: 3, event: try event("a"))
        _ = m.subscribeRequested(id: "s", filters: [NostrFilter(kinds: [1])])
        let actions = m.connectionDropped(reason: "refused")
        let error = RelayError(.connectionFailed, "refused")
        XCTAssertEqual(actions, [.completePublish(token: 3, .failed(error)),
                                 .deliver(subscription: "s", .closed(message: "error: refused")), .finishSubscription("s")])
        XCTAssertEqual(m.state, .idle)
    }

    func testAuthChallengeSignsOnceAndResendsAuthRequiredEvent() throws {
        var m = machine(RelayClientConfiguration(authSigner: key))
        let e = try event("needs auth")
        _ = m.publishRequested(token: 0, event: e)
        _ = m.connectionOpened()
        // Refused for lack of auth before any challenge: kept until the challenge arrives.
        XCTAssertEqual(m.textReceived(okText(e.id, false, "auth-required: sign in")), [])
        let actions = m.textReceived("[\"AUTH\",\"challenge-1\"]")
        XCTAssertEqual(actions.count, 2)
        guard case .send(.auth(let auth)) = actions.first else { return XCTFail("no AUTH sent: \(actions)") }
        XCTAssertEqual(auth.kind, 22242)
        XCTAssertEqual(actions.last, .send(.event(e)))
        XCTAssertTrue(m.authenticated)
        // A second refusal is final.
        XCTAssertEqual(m.textReceived(okText(e.id, false, "auth-required: still no")),
                       [.completePublish(token: 0, .rejected(OKMessage(eventId: e.id, accepted: false, message: "auth-required: still no")))])
    }

    func testCloseFailsQueuedWorkAndClosesSocket() throws {
        var m = machine()
        _ = m.publishRequested(token: 0, event: try event("a"))
        _ = m.connectionOpened()
        _ = m.subscribeRequested(id: "s", filters: [NostrFilter(kinds: [1])])
        let closed = RelayError(.clientClosed, "client was closed")
        XCTAssertEqual(m.closeRequested(), [.finishSubscription("s"), .completePublish(token: 0, .failed(closed)), .closeSocket])
        XCTAssertEqual(m.publishRequested(token: 1, event: try event("b")), [.completePublish(token: 1, .failed(closed))])
        XCTAssertEqual(m.connectionOpened(), [.closeSocket], "a socket that opens after close is closed")
    }

    func testMalformedAndForeignMessagesAreCountedNotFatal() throws {
        var m = machine()
        _ = m.subscribeRequested(id: "s", filters: [NostrFilter(kinds: [1])])
        _ = m.connectionOpened()
        XCTAssertEqual(m.textReceived("not json"), [])
        XCTAssertEqual(m.textReceived("[\"OK\",\"\(String(repeating: "ab", count: 32))\",true,\"\"]"), [])
        XCTAssertEqual(m.stats.malformedMessages, 1)
        XCTAssertEqual(m.stats.unmatchedOKs, 1)
        let wrongKind = try EventTemplate(kind: 7, content: "", createdAt: 1).signed(by: key, using: SeededRandom(seed: 2))
        let actions = m.textReceived("[\"EVENT\",\"s\",\(String(decoding: wrongKind.jsonBytes, as: UTF8.self))]")
        guard case .deliver("s", .invalidEvent) = actions.first else { return XCTFail("filter mismatch not reported: \(actions)") }
        XCTAssertEqual(m.state, .connected)
    }
}
