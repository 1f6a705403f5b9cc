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
        XCTAssertEqual(m.textReceived(okText(e.id, true)), [.completePublish(token: 0, .accepted(OKMessage(eventId: e.id, accepted: true, message: ""))), .reportStatus(.connected)])
        XCTAssertEqual(m.awaitedCount, 0)
    }

    func testDropResendsUnacknowledgedEventsAfterBackoff() throws {
        var m = machine()
        let e = try event("resend me")
        _ = m.publishRequested(token: 0, event: e)
        _ = m.connectionOpened()
        let afterDrop = m.connectionDropped(reason: "reset")
        guard case .scheduleReconnect = afterDrop.first else { return XCTFail("no reconnect scheduled: \(afterDrop)") }
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
        XCTAssertEqual(actions, [.completePublish(token: 0, .rejected(OKMessage(eventId: "", accepted: false, message: "blocked: no"))), .reportStatus(.connected)])
    }

    func testTimedOutSentEventKeepsPlaceholderSoLateOKIsNotMisassigned() throws {
        var m = machine()
        let a = try event("a"), b = try event("b")
        _ = m.publishRequested(token: 0, event: a)
        _ = m.connectionOpened()
        XCTAssertEqual(m.publishTimedOut(token: 0), [.completePublish(token: 0, .timedOut(wasSent: true))])
        _ = m.publishRequested(token: 1, event: b)
        // The late empty-id OK belongs to `a`'s placeholder, not to `b`.
        XCTAssertEqual(m.textReceived(okText("", true)), [.reportStatus(.connected)], "the late OK is an answer: the connection works")
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
        XCTAssertEqual(m.textReceived("[\"EVENT\",\"s\",\(String(decoding: e.jsonBytes, as: UTF8.self))]"), [.deliver(subscription: "s", .event(e)), .reportStatus(.connected)])
        XCTAssertEqual(m.textReceived("[\"EOSE\",\"s\"]"), [.deliver(subscription: "s", .eose)])
        _ = m.connectionDropped(reason: "gone")
        _ = m.reconnectDue()
        XCTAssertEqual(m.connectionOpened(), [.send(.req(subscriptionId: "s", filters: filters))])
        XCTAssertEqual(m.textReceived("[\"EVENT\",\"s\",\(String(decoding: e.jsonBytes, as: UTF8.self))]"), [.reportStatus(.connected)], "already delivered")
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
                                 .deliver(subscription: "s", .closed(message: "error: refused")), .finishSubscription("s"), .reportStatus(.disconnected(reason: "refused"))])
        XCTAssertEqual(m.state, .idle)
    }

    func testAuthChallengeSignsOnceAndResendsAuthRequiredEvent() throws {
        var m = machine(RelayClientConfiguration(authSigner: key))
        let e = try event("needs auth")
        _ = m.publishRequested(token: 0, event: e)
        _ = m.connectionOpened()
        // Refused for lack of auth before any challenge: kept until the challenge arrives.
        XCTAssertEqual(m.textReceived(okText(e.id, false, "auth-required: sign in")), [.reportStatus(.connected)])
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
        XCTAssertEqual(m.textReceived("[\"OK\",\"\(String(repeating: "ab", count: 32))\",true,\"\"]"), [.reportStatus(.connected)])
        XCTAssertEqual(m.stats.malformedMessages, 1)
        XCTAssertEqual(m.stats.unmatchedOKs, 1)
        let wrongKind = try EventTemplate(kind: 7, content: "", createdAt: 1).signed(by: key, using: SeededRandom(seed: 2))
        let actions = m.textReceived("[\"EVENT\",\"s\",\(String(decoding: wrongKind.jsonBytes, as: UTF8.self))]")
        guard case .deliver("s", .invalidEvent) = actions.first else { return XCTFail("filter mismatch not reported: \(actions)") }
        XCTAssertEqual(m.state, .connected)
    }

    // MARK: backoff and status (issue 31, D9)

    /// Attempt delays with no jitter: 0.2 s doubling, capped at 30 s.
    func noJitter(maxAttempts: Int? = nil) -> RelayClientConfiguration {
        RelayClientConfiguration(reconnect: ReconnectPolicy(initialDelay: .milliseconds(200), maxDelay: .seconds(30), jitter: 0, maxAttempts: maxAttempts))
    }

    func delay(_ actions: [Machine.Action]) -> Duration? {
        for a in actions { if case .scheduleReconnect(let d) = a { return d } }
        return nil
    }

    func statuses(_ actions: [Machine.Action]) -> [RelayConnectionStatus] {
        actions.compactMap { if case .reportStatus(let s) = $0 { return s } else { return nil } }
    }

    /// A relay that accepts every socket and drops it before answering used to be retried at the
    /// first delay forever (an opened socket reset the count): about 4 times a second.
    func testARelayThatDropsEveryConnectionBacksOffToTheCap() throws {
        var m = machine(noJitter())
        _ = m.subscribeRequested(id: "s", filters: [NostrFilter(kinds: [1])])
        var delays: [Duration] = []
        for _ in 0..<12 {
            _ = m.connectionOpened()
            delays.append(try XCTUnwrap(delay(m.connectionDropped(reason: "dropped"))))
            XCTAssertEqual(m.reconnectDue(), [.openConnection])
        }
        XCTAssertEqual(delays, [200, 400, 800, 1_600, 3_200, 6_400, 12_800, 25_600, 30_000, 30_000, 30_000, 30_000].map { .milliseconds($0) })
    }

    func testBackoffStartsOverOnceTheRelayAnswered() throws {
        var m = machine(noJitter())
        _ = m.subscribeRequested(id: "s", filters: [NostrFilter(kinds: [1])])
        for _ in 0..<5 {
            _ = m.connectionOpened()
            _ = m.connectionDropped(reason: "dropped")
            _ = m.reconnectDue()
        }
        _ = m.connectionOpened()
        XCTAssertEqual(m.attempt, 5, "an opened socket alone proves nothing")
        XCTAssertEqual(m.textReceived("[\"NOTICE\",\"hello\"]"), [], "an unasked NOTICE is not an answer")
        XCTAssertEqual(m.textReceived("[\"EOSE\",\"s\"]"), [.deliver(subscription: "s", .eose), .reportStatus(.connected)])
        XCTAssertEqual(m.attempt, 0)
        XCTAssertEqual(delay(m.connectionDropped(reason: "restart")), .milliseconds(200))
    }

    func testStatusIsReportedOncePerChange() throws {
        var m = machine(noJitter())
        var reported: [RelayConnectionStatus] = []
        reported += statuses(m.subscribeRequested(id: "s", filters: [NostrFilter(kinds: [1])]))
        for _ in 0..<10 {
            reported += statuses(m.connectionOpened())
            reported += statuses(m.connectionDropped(reason: "dropped"))
            reported += statuses(m.reconnectDue())
        }
        XCTAssertEqual(reported, [.reconnecting(attempt: 1, retryIn: .milliseconds(200), reason: "dropped")], "one report for ten failed attempts")
        reported += statuses(m.connectionOpened())
        reported += statuses(m.textReceived("[\"EOSE\",\"s\"]"))
        reported += statuses(m.textReceived("[\"EOSE\",\"s\"]"))
        reported += statuses(m.connectionDropped(reason: "restart"))
        XCTAssertEqual(reported.dropFirst(), [.connected, .reconnecting(attempt: 1, retryIn: .milliseconds(200), reason: "restart")])
        // The last subscription gone, the next drop ends the connection: reported once.
        _ = m.reconnectDue()
        _ = m.connectionOpened()
        _ = m.unsubscribeRequested(id: "s")
        XCTAssertEqual(statuses(m.connectionDropped(reason: "bye")), [.disconnected(reason: "bye")])
    }

    func testGivingUpIsReportedAsDisconnected() throws {
        var m = machine(noJitter(maxAttempts: 2))
        _ = m.publishRequested(token: 0, event: try event("a"))
        var reported: [RelayConnectionStatus] = []
        for _ in 0..<3 {
            reported += statuses(m.connectionDropped(reason: "refused"))
            _ = m.reconnectDue()
        }
        XCTAssertEqual(reported, [.reconnecting(attempt: 1, retryIn: .milliseconds(200), reason: "refused"), .disconnected(reason: "refused")])
    }

    /// The jitter comes from the injected `RandomSource`: a seed replays it, and every delay lies
    /// within ±25 % of the exponential curve.
    func testJitterIsDrawnFromTheInjectedRandomSource() throws {
        func delays(seed: UInt64) -> [Duration] {
            var m = Machine(url: "ws://relay.test", configuration: RelayClientConfiguration(), random: SeededRandom(seed: seed))
            _ = m.subscribeRequested(id: "s", filters: [NostrFilter(kinds: [1])])
            return (0..<10).compactMap { _ in
                _ = m.connectionOpened()
                let d = delay(m.connectionDropped(reason: "x"))
                _ = m.reconnectDue()
                return d
            }
        }
        let a = delays(seed: 1)
        XCTAssertEqual(a, delays(seed: 1))
        XCTAssertNotEqual(a, delays(seed: 2))
        for (i, d) in a.enumerated() {
            let base = min(0.2 * Double(1 << i), 30)
            let s = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
            XCTAssertTrue(s >= base * 0.75 - 0.001 && s <= base * 1.25 + 0.001, "attempt \(i + 1): \(s) s vs \(base) s")
        }
    }
}
