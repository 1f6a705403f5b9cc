import Foundation
import GRDB

/// Group message history, ordered by `created_at` then the local sequence, unique by event id.
package struct MessagesTable {
    let db: Database

    /// `false` (nothing written) when the event is already in the history: a relay echoing the
    /// node's own event, or the same event from two relays, is stored once.
    /// The stored row's ``StoredMessage/sequence`` is the next local sequence number.
    @discardableResult
    package func insert(_ m: StoredMessage) throws -> Bool {
        // Cached: the statement is compiled once per connection (the hot path of a catch-up).
        try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO messages(event_id, group_id, sender, created_at, kind, content, outgoing, status, seq)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM messages))
            """).execute(arguments: [m.eventID, m.groupID, m.sender.data, m.createdAt, m.kind, m.content, m.outgoing, m.status.rawValue])
        return db.changesCount == 1
    }

    package func contains(eventID: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS(SELECT 1 FROM messages WHERE event_id = ?)"), arguments: [eventID]) ?? false
    }

    package func get(eventID: String) throws -> StoredMessage? {
        try Row.fetchOne(db, sql: "SELECT * FROM messages WHERE event_id = ?", arguments: [eventID]).map(Self.decode)
    }

    /// A page of a group's history in order, strictly after `after` (a `(created_at, sequence)`
    /// cursor), so `--follow` and paging never repeat or skip a message.
    package func history(groupID: String, after: (createdAt: Int64, sequence: Int64)? = nil, limit: Int = 500) throws -> [StoredMessage] {
        if let after {
            return try Row.fetchAll(db, sql: """
                SELECT * FROM messages WHERE group_id = ? AND (created_at, seq) > (?, ?)
                ORDER BY created_at, seq LIMIT ?
                """, arguments: [groupID, after.createdAt, after.sequence, limit]).map(Self.decode)
        }
        return try Row.fetchAll(db, sql: "SELECT * FROM messages WHERE group_id = ? ORDER BY created_at, seq LIMIT ?",
                                arguments: [groupID, limit]).map(Self.decode)
    }

    /// The page before `before` (newest last), for scrolling back from the newest message.
    package func history(groupID: String, before: (createdAt: Int64, sequence: Int64), limit: Int) throws -> [StoredMessage] {
        try Row.fetchAll(db, sql: """
            SELECT * FROM messages WHERE group_id = ? AND (created_at, seq) < (?, ?)
            ORDER BY created_at DESC, seq DESC LIMIT ?
            """, arguments: [groupID, before.createdAt, before.sequence, limit]).map(Self.decode).reversed()
    }

    /// Every group's messages stored after the local sequence `sequence`, in the order they were
    /// stored (the node's feed, docs/storage.md §6): the sequence only grows, one writer assigns it,
    /// so a reader that remembers the last one it handled sees each message once.
    package func stored(afterSequence sequence: Int64, limit: Int) throws -> [StoredMessage] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM messages WHERE seq > ? ORDER BY seq LIMIT ?"),
                         arguments: [sequence, limit]).map(Self.decode)
    }

    package func count(groupID: String? = nil) throws -> Int {
        if let groupID { return try Int.fetchOne(db, sql: "SELECT count(*) FROM messages WHERE group_id = ?", arguments: [groupID]) ?? 0 }
        return try Int.fetchOne(db, sql: "SELECT count(*) FROM messages") ?? 0
    }

    package func setStatus(eventID: String, _ status: StoredMessage.Status) throws {
        try db.execute(sql: "UPDATE messages SET status = ? WHERE event_id = ?", arguments: [status.rawValue, eventID])
    }

    static func decode(_ row: Row) -> StoredMessage {
        StoredMessage(eventID: row["event_id"], groupID: row["group_id"], sender: row.bytes("sender"), createdAt: row["created_at"],
                      kind: row["kind"], content: row["content"], outgoing: row["outgoing"],
                      status: StoredMessage.Status(rawValue: row["status"]) ?? .received, sequence: row["seq"])
    }
}
