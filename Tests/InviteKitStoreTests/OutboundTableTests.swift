import XCTest
@testable import InviteKitStore

final class OutboundTableTests: XCTestCase {
    func testEnqueueDedupesByEventIDAndAddsNewRelays() throws {
        let store = try Store.inMemory()
        XCTAssertTrue(try store.write { tx in try tx.outbound.enqueue(eventID: "e", eventJSON: "{}", kind: 1, purpose: "t", relays: ["a"], now: 1) })
        XCTAssertFalse(try store.write { tx in try tx.outbound.enqueue(eventID: "e", eventJSON: "{}", kind: 1, purpose: "t", relays: ["a", "b"], now: 2) })
        let entry = try XCTUnwrap(try store.read { tx in try tx.outbound.entry(eventID: "e") })
        XCTAssertEqual(entry.deliveries.map(\.relay), ["a", "b"])
        XCTAssertEqual(entry.deliveries.map(\.attempts), [0, 0])
    }

    func testGatedEventWaitsForItsGateToBeAcknowledged() throws {
        let store = try Store.inMemory()
        try store.write { tx in
            try tx.outbound.enqueue(eventID: "commit", eventJSON: "{}", kind: 445, purpose: "commit", relays: ["a", "b"], now: 1)
            try tx.outbound.enqueue(eventID: "welcome", eventJSON: "{}", kind: 1059, purpose: "welcome", relays: ["a"], gateEventID: "commit", now: 1)
        }
        XCTAssertEqual(try store.read { tx in try tx.outbound.due(now: 5).map(\.eventID) }, ["commit"])
        try store.write { tx in
            try tx.outbound.apply(.sent(now: 5), eventID: "commit", relay: "a")
            try tx.outbound.apply(.ok(accepted: false, message: "invalid: nope", now: 6), eventID: "commit", relay: "a")
        }
        XCTAssertFalse(try store.read { tx in try tx.outbound.due(now: 6) }.contains { $0.eventID == "welcome" }, "a refusal is not an OK")
        try store.write { tx in
            try tx.outbound.apply(.sent(now: 7), eventID: "commit", relay: "b")
            try tx.outbound.apply(.ok(accepted: true, message: "", now: 8), eventID: "commit", relay: "b")
        }
        XCTAssertEqual(try store.read { tx in try tx.outbound.due(now: 8).map(\.eventID) }, ["welcome"])
    }

    /// A gated event whose gate every relay refused for good can never leave: its summary is
    /// `failed`, while a gate still pending leaves it `queued`; an unknown event has none.
    func testAGatedEventIsFailedOnceItsGateFailedEverywhere() throws {
        let store = try Store.inMemory()
        try store.write { tx in
            try tx.outbound.enqueue(eventID: "kp", eventJSON: "{}", kind: 30443, purpose: "key_package", relays: ["a", "b"], now: 1)
            try tx.outbound.enqueue(eventID: "req", eventJSON: "{}", kind: 1059, purpose: "invite_link_request", relays: ["c"], gateEventID: "kp", now: 1)
            try tx.outbound.apply(.sent(now: 2), eventID: "kp", relay: "a")
            try tx.outbound.apply(.ok(accepted: false, message: "blocked: no", now: 3), eventID: "kp", relay: "a")
        }
        XCTAssertEqual(try store.read { tx in try tx.outbound.summary(eventID: "req") }, .queued, "one relay may still take the gate")
        try store.write { tx in
            try tx.outbound.apply(.sent(now: 4), eventID: "kp", relay: "b")
            try tx.outbound.apply(.ok(accepted: false, message: "blocked: no", now: 5), eventID: "kp", relay: "b")
        }
        XCTAssertEqual(try store.read { tx in try tx.outbound.summary(eventID: "kp") }, .failed)
        XCTAssertEqual(try store.read { tx in try tx.outbound.summary(eventID: "req") }, .failed, "the gate failed on every relay")
        XCTAssertNil(try store.read { tx in try tx.outbound.summary(eventID: "unknown") })
    }

    func testOutgoingMessageFollowsItsEventsDeliveryStatus() throws {
        let store = try Store.inMemory()
        try store.write { tx in
            try tx.messages.insert(StoredMessage(eventID: "m", groupID: "g", sender: [1], createdAt: 1, kind: 9, content: "hi", outgoing: true, status: .pending))
            try tx.outbound.enqueue(eventID: "m", eventJSON: "{}", kind: 445, purpose: "message", relays: ["a", "b"], now: 1)
        }
        try store.write { tx in try tx.outbound.apply(.sent(now: 2), eventID: "m", relay: "a") }
        XCTAssertEqual(try store.read { tx in try tx.messages.get(eventID: "m")?.status }, .sent)
        try store.write { tx in try tx.outbound.apply(.ok(accepted: true, message: "", now: 3), eventID: "m", relay: "a") }
        XCTAssertEqual(try store.read { tx in try tx.messages.get(eventID: "m")?.status }, .acked)
    }

    func testReconnectMakesUnacknowledgedEventsDueAgain() throws {
        let store = try Store.inMemory()
        try store.write { tx in
            try tx.outbound.enqueue(eventID: "e", eventJSON: "{}", kind: 1, purpose: "t", relays: ["a"], now: 1)
            try tx.outbound.apply(.sent(now: 1), eventID: "e", relay: "a")
        }
        XCTAssertTrue(try store.read { tx in try tx.outbound.due(now: 2) }.isEmpty)
        try store.write { tx in try tx.outbound.relayReconnected("a", now: 3) }
        let due = try store.read { tx in try tx.outbound.due(now: 3) }
        XCTAssertEqual(due.first?.deliveries.first?.status, .queued)
        XCTAssertEqual(due.first?.deliveries.first?.attempts, 1)
    }

    func testARestartRequeuesOnlySentDeliveries() throws {
        let store = try Store.inMemory()
        try store.write { tx in
            try tx.outbound.enqueue(eventID: "e", eventJSON: "{}", kind: 1, purpose: "t", relays: ["a", "b", "c"], now: 1)
            try tx.outbound.apply(.sent(now: 1), eventID: "e", relay: "a")
            try tx.outbound.apply(.sent(now: 1), eventID: "e", relay: "b")
            try tx.outbound.apply(.ok(accepted: true, message: "", now: 1), eventID: "e", relay: "b")
        }
        XCTAssertEqual(try store.write { tx in try tx.outbound.requeueSent(now: 2) }, 1, "only a's delivery was in flight")
        let deliveries = try store.read { tx in try tx.outbound.deliveries(eventID: "e") }
        XCTAssertEqual(deliveries.map(\.status), [.queued, .acked, .queued])
        XCTAssertEqual(deliveries.map(\.attempts), [1, 1, 0])
        XCTAssertEqual(try store.read { tx in try tx.outbound.due(now: 2) }.first?.deliveries.map(\.relay), ["a", "c"], "due now, b is done")
    }

    func testApplyingToAnUnknownDeliveryThrows() throws {
        let store = try Store.inMemory()
        XCTAssertThrowsError(try store.write { tx in try tx.outbound.apply(.sent(now: 1), eventID: "x", relay: "a") }) {
            XCTAssertEqual(($0 as? StoreError)?.code, .notFound)
        }
    }
}
