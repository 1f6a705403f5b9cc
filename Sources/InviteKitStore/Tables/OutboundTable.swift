import Foundation
import GRDB

/// The persisted outbound queue: every event the node publishes, with its status on each relay.
/// The rules are ``OutboundStateMachine``'s; this table only stores their results.
package struct OutboundTable {
    let db: Database

    /// Queues `eventID` for `relays`. `false` when the event was already queued (dedupe by id);
    /// relays it did not have yet are added.
    @discardableResult
    package func enqueue(eventID: String, eventJSON: String, kind: Int, purpose: OutboundPurpose, relays: [String],
                        gateEventID: String? = nil, heldForCommit: String? = nil, now: Int64) throws -> Bool {
        try db.execute(sql: """
            INSERT OR IGNORE INTO outbound(event_id, event_json, kind, purpose, gate_event_id, held_for_commit, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, arguments: [eventID, eventJSON, kind, purpose.rawValue, gateEventID, heldForCommit, now])
        let fresh = db.changesCount == 1
        for relay in relays {
            try db.execute(sql: """
                INSERT OR IGNORE INTO outbound_deliveries(event_id, relay, status, attempts, next_attempt_at, reason, updated_at)
                VALUES (?, ?, 'queued', 0, ?, NULL, ?)
                """, arguments: [eventID, relay, now, now])
        }
        return fresh
    }

    package func entry(eventID: String) throws -> OutboundEntry? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM outbound WHERE event_id = ?", arguments: [eventID]) else { return nil }
        return Self.decodeEntry(row, deliveries: try deliveries(eventID: eventID))
    }

    package func deliveries(eventID: String) throws -> [RelayDelivery] {
        try Row.fetchAll(db, sql: "SELECT * FROM outbound_deliveries WHERE event_id = ? ORDER BY relay", arguments: [eventID])
            .map(Self.decodeDelivery)
    }

    /// Deliveries to act on now: queued and due, or sent and past their ack timeout; never an
    /// event whose gate event no relay has acknowledged yet (no Welcome before its Commit's `OK`),
    /// nor one held for its Commit's settlement (``releaseHeld(forCommit:)``).
    /// Oldest events first; each entry lists only its due deliveries.
    package func due(now: Int64, limit: Int = 256) throws -> [OutboundEntry] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT o.event_id, o.event_json, o.kind, o.purpose, o.gate_event_id, o.created_at,
                   d.relay, d.status, d.attempts, d.next_attempt_at, d.reason, d.updated_at
            FROM outbound_deliveries d JOIN outbound o ON o.event_id = d.event_id
            WHERE d.status IN ('queued', 'sent') AND d.next_attempt_at <= ? AND o.held_for_commit IS NULL
              AND (o.gate_event_id IS NULL OR EXISTS (
                    SELECT 1 FROM outbound_deliveries g WHERE g.event_id = o.gate_event_id AND g.status = 'acked'))
            ORDER BY o.created_at, o.event_id, d.relay
            LIMIT ?
            """, arguments: [now, limit])
        var entries: [OutboundEntry] = []
        for row in rows {
            let delivery = Self.decodeDelivery(row)
            let id: String = row["event_id"]
            if entries.last?.eventID == id { entries[entries.count - 1].deliveries.append(delivery) } else {
                entries.append(Self.decodeEntry(row, deliveries: [delivery]))
            }
        }
        return entries
    }

    /// Applies one delivery event through `machine` and stores the result; an outgoing message
    /// carried by the event takes the event's new summary status. Unknown deliveries throw
    /// ``StoreError/Code/notFound``.
    @discardableResult
    package func apply(_ event: DeliveryEvent, eventID: String, relay: String,
                      machine: OutboundStateMachine = OutboundStateMachine()) throws -> RelayDelivery {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM outbound_deliveries WHERE event_id = ? AND relay = ?",
                                         arguments: [eventID, relay]) else {
            throw StoreError(.notFound, "no delivery of \(eventID) to \(relay)")
        }
        let before = Self.decodeDelivery(row)
        let after = machine.apply(event, to: before)
        guard after != before else { return after }
        try db.execute(sql: """
            UPDATE outbound_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, reason = ?, updated_at = ?
            WHERE event_id = ? AND relay = ?
            """, arguments: [after.status.rawValue, after.attempts, after.nextAttemptAt, after.reason, after.updatedAt, eventID, relay])
        if after.status != before.status { try syncMessageStatus(eventID: eventID) }
        return after
    }

    /// A relay (re)connected: everything not yet acknowledged there is due again now.
    package func relayReconnected(_ relay: String, now: Int64, machine: OutboundStateMachine = OutboundStateMachine()) throws {
        let ids = try String.fetchAll(db, sql: "SELECT event_id FROM outbound_deliveries WHERE relay = ? AND status IN ('queued', 'sent')",
                                      arguments: [relay])
        for id in ids { try apply(.disconnected(now: now), eventID: id, relay: relay, machine: machine) }
    }

    /// The process that wrote `sent` deliveries is gone (a restart), and with it their
    /// connections: an `OK` for them can never arrive, so each is due again now, as after a
    /// disconnect. Returns how many.
    @discardableResult
    package func requeueSent(now: Int64, machine: OutboundStateMachine = OutboundStateMachine()) throws -> Int {
        let rows = try Row.fetchAll(db, sql: "SELECT event_id, relay FROM outbound_deliveries WHERE status = 'sent'")
        for row in rows {
            try apply(.disconnected(now: now), eventID: row["event_id"], relay: row["relay"], machine: machine)
        }
        return rows.count
    }

    /// The Commits whose events are held (Welcomes waiting for their Add to settle on the
    /// selected branch, PROTOCOL §5.13 "Welcome hold").
    package func heldCommits() throws -> [String] {
        try String.fetchAll(db, sql: "SELECT DISTINCT held_for_commit FROM outbound WHERE held_for_commit IS NOT NULL ORDER BY held_for_commit")
    }

    /// The events held for `commitEventID` become due like any other. Returns how many.
    @discardableResult
    package func releaseHeld(forCommit commitEventID: String) throws -> Int {
        try db.execute(sql: "UPDATE outbound SET held_for_commit = NULL WHERE held_for_commit = ?", arguments: [commitEventID])
        return db.changesCount
    }

    /// The events held for `commitEventID` are deleted, deliveries and all, never sent (their
    /// Commit lost its branch). Returns how many.
    @discardableResult
    package func dropHeld(forCommit commitEventID: String) throws -> Int {
        try db.execute(sql: "DELETE FROM outbound WHERE held_for_commit = ?", arguments: [commitEventID])
        return db.changesCount
    }

    /// Whether some relay acknowledged the event.
    package func isAcked(eventID: String) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM outbound_deliveries WHERE event_id = ? AND status = 'acked')",
                          arguments: [eventID]) ?? false
    }

    /// Events released by `gateEventID` (gated on it, or on an event so released: a Commit's tree
    /// chunks and Welcomes) that no relay acknowledged yet and that still have a delivery to try.
    package func unfinishedReleased(by gateEventID: String) throws -> Int {
        try Int.fetchOne(db, sql: """
            WITH RECURSIVE released(id) AS (
                SELECT event_id FROM outbound WHERE gate_event_id = ?
                UNION SELECT o.event_id FROM outbound o JOIN released r ON o.gate_event_id = r.id)
            SELECT count(*) FROM released r
            WHERE NOT EXISTS (SELECT 1 FROM outbound_deliveries d WHERE d.event_id = r.id AND d.status = 'acked')
              AND EXISTS (SELECT 1 FROM outbound_deliveries d WHERE d.event_id = r.id AND d.status IN ('queued', 'sent'))
            """, arguments: [gateEventID]) ?? 0
    }

    /// One event's status over all its relays (``OutboundStateMachine/summary(_:)``); `nil` for
    /// an event the queue does not hold. An event gated on another (a Welcome on its Commit, an
    /// invite-link request on its KeyPackage) and not yet sent is `failed` once its gate failed on
    /// every relay: it can never leave.
    package func summary(eventID: String) throws -> EventDeliverySummary? {
        let own = try deliveries(eventID: eventID)
        guard !own.isEmpty else { return nil }
        let summary = OutboundStateMachine.summary(own)
        guard summary == .queued,
              let gate = try String.fetchOne(db, sql: "SELECT gate_event_id FROM outbound WHERE event_id = ?", arguments: [eventID]) else {
            return summary
        }
        return try self.summary(eventID: gate) == .failed ? .failed : summary
    }

    /// How many events of `purpose` are queued or were sent (what a held-and-dropped Welcome
    /// leaves no row of).
    package func count(purpose: OutboundPurpose) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM outbound WHERE purpose = ?", arguments: [purpose.rawValue]) ?? 0
    }

    /// Deliveries not yet final.
    package func unfinishedCount() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM outbound_deliveries WHERE status IN ('queued', 'sent')") ?? 0
    }

    private func syncMessageStatus(eventID: String) throws {
        let summary = OutboundStateMachine.summary(try deliveries(eventID: eventID))
        let status: StoredMessage.Status
        switch summary {
        case .queued: status = .pending
        case .sent: status = .sent
        case .acked: status = .acked
        case .failed: status = .failed
        }
        try db.execute(sql: "UPDATE messages SET status = ? WHERE event_id = ? AND outgoing = 1", arguments: [status.rawValue, eventID])
    }

    static func decodeDelivery(_ row: Row) -> RelayDelivery {
        RelayDelivery(relay: row["relay"], status: DeliveryStatus(rawValue: row["status"]) ?? .queued, attempts: row["attempts"],
                      nextAttemptAt: row["next_attempt_at"], reason: row["reason"], updatedAt: row["updated_at"])
    }

    static func decodeEntry(_ row: Row, deliveries: [RelayDelivery]) -> OutboundEntry {
        OutboundEntry(eventID: row["event_id"], eventJSON: row["event_json"], kind: row["kind"], purpose: OutboundPurpose(rawValue: row["purpose"]),
                      gateEventID: row["gate_event_id"], createdAt: row["created_at"], deliveries: deliveries)
    }
}
