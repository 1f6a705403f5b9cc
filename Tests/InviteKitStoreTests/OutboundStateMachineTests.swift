import XCTest
@testable import InviteKitStore

/// The outbound rules alone: no database, no sockets.
final class OutboundStateMachineTests: XCTestCase {
    let machine = OutboundStateMachine(policy: RetryPolicy(baseDelay: 2, maxDelay: 10, maxAttempts: 3, ackTimeout: 30))

    func testQueuedSentAcked() {
        var d = RelayDelivery.queued(relay: "ws://a", now: 100)
        XCTAssertTrue(machine.isDue(d, now: 100))
        d = machine.apply(.sent(now: 100), to: d)
        XCTAssertEqual(d.status, .sent)
        XCTAssertEqual(d.attempts, 1)
        XCTAssertFalse(machine.isDue(d, now: 129))
        XCTAssertTrue(machine.isDue(d, now: 130), "no OK within the ack timeout makes it due again")
        d = machine.apply(.ok(accepted: true, message: "", now: 101), to: d)
        XCTAssertEqual(d.status, .acked)
        XCTAssertFalse(machine.isDue(d, now: 10_000))
    }

    func testDuplicateCountsAsAcknowledged() {
        var d = machine.apply(.sent(now: 1), to: .queued(relay: "r", now: 1))
        d = machine.apply(.ok(accepted: false, message: "duplicate: already have this event", now: 2), to: d)
        XCTAssertEqual(d.status, .acked)
    }

    func testPermanentRefusalKeepsTheReason() {
        var d = machine.apply(.sent(now: 1), to: .queued(relay: "r", now: 1))
        d = machine.apply(.ok(accepted: false, message: "blocked: you are banned", now: 2), to: d)
        XCTAssertEqual(d.status, .rejected)
        XCTAssertEqual(d.reason, "blocked: you are banned")
    }

    func testTransientRefusalBacksOffThenGivesUp() {
        var d = RelayDelivery.queued(relay: "r", now: 0)
        var now: Int64 = 0
        var delays: [Int64] = []
        for _ in 0..<3 {
            d = machine.apply(.sent(now: now), to: d)
            d = machine.apply(.ok(accepted: false, message: "rate-limited: slow down", now: now), to: d)
            if d.status == .queued { delays.append(d.nextAttemptAt - now); now = d.nextAttemptAt }
        }
        XCTAssertEqual(delays, [2, 4])
        XCTAssertEqual(d.status, .givenUp)
        XCTAssertEqual(d.attempts, 3)
        XCTAssertEqual(d.reason, "rate-limited: slow down")
    }

    func testBackoffIsCapped() {
        XCTAssertEqual(machine.policy.backoff(afterAttempts: 1), 2)
        XCTAssertEqual(machine.policy.backoff(afterAttempts: 3), 8)
        XCTAssertEqual(machine.policy.backoff(afterAttempts: 4), 10)
        XCTAssertEqual(machine.policy.backoff(afterAttempts: 500), 10)
    }

    func testDisconnectMakesASentEventDueAtOnce() {
        var d = machine.apply(.sent(now: 10), to: .queued(relay: "r", now: 10))
        d = machine.apply(.disconnected(now: 12), to: d)
        XCTAssertEqual(d.status, .queued)
        XCTAssertTrue(machine.isDue(d, now: 12))
        XCTAssertEqual(d.attempts, 1, "a reconnect does not reset the attempt count")
    }

    func testAckTimeoutRequeuesWithBackoff() {
        var d = machine.apply(.sent(now: 0), to: .queued(relay: "r", now: 0))
        d = machine.apply(.ackTimeout(now: 30), to: d)
        XCTAssertEqual(d.status, .queued)
        XCTAssertEqual(d.nextAttemptAt, 32)
    }

    func testFinalStatesAbsorbLateEvents() {
        let acked = machine.apply(.ok(accepted: true, message: "", now: 1), to: machine.apply(.sent(now: 0), to: .queued(relay: "r", now: 0)))
        XCTAssertEqual(machine.apply(.ok(accepted: false, message: "invalid: x", now: 2), to: acked), acked)
        XCTAssertEqual(machine.apply(.sent(now: 3), to: acked), acked)
        XCTAssertEqual(machine.apply(.disconnected(now: 3), to: acked), acked)
    }

    func testSummaryOverRelays() {
        let q = RelayDelivery.queued(relay: "a", now: 0)
        let s = machine.apply(.sent(now: 0), to: q)
        let acked = machine.apply(.ok(accepted: true, message: "", now: 0), to: s)
        let rejected = machine.apply(.ok(accepted: false, message: "invalid: bad", now: 0), to: s)
        XCTAssertEqual(OutboundStateMachine.summary([q]), .queued)
        XCTAssertEqual(OutboundStateMachine.summary([q, s]), .sent)
        XCTAssertEqual(OutboundStateMachine.summary([rejected, acked]), .acked)
        XCTAssertEqual(OutboundStateMachine.summary([rejected]), .failed)
    }
}
