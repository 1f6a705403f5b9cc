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
            INSERT OR IGNORE INTO messages(event_id, group_id, sender, created_at, kind, content, outgoing, status, app_event_id, tags,
                                           refers_to, expires_at, deleted_at, seq)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM messages))
            """).execute(arguments: [m.eventID, m.groupID, m.sender.data, m.createdAt, m.kind, m.content, m.outgoing, m.status.rawValue,
                                     m.appEventID, Self.encode(tags: m.tags), m.refersTo, m.expiresAt, m.deletedAt])
        return db.changesCount == 1
    }

    package func contains(eventID: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS(SELECT 1 FROM messages WHERE event_id = ?)"), arguments: [eventID]) ?? false
    }

    package func get(eventID: String) throws -> StoredMessage? {
        try Row.fetchOne(db, sql: "SELECT * FROM messages WHERE event_id = ?", arguments: [eventID]).map(Self.decode)
    }

    /// A page of a group's history in order, strictly after `after` (a `(created_at, sequence)`
    /// cursor), so `--follow` and paging never repeat or skip a message. `visibleAt` leaves out
    /// what retention removes by then; `excludingKinds` leaves out kinds shown on their target
    /// rather than as rows (reactions, edits, deletions).
    package func history(groupID: String, after: (createdAt: Int64, sequence: Int64)? = nil, limit: Int = 500,
                         visibleAt now: Int64? = nil, excludingKinds: [Int] = []) throws -> [StoredMessage] {
        let (filter, args) = Self.visibility(now: now, excludingKinds: excludingKinds)
        if let after {
            return try Row.fetchAll(db, sql: """
                SELECT * FROM messages WHERE group_id = ? AND (created_at, seq) > (?, ?)\(filter)
                ORDER BY created_at, seq LIMIT ?
                """, arguments: StatementArguments([groupID, after.createdAt, after.sequence] + args + [limit])).map(Self.decode)
        }
        return try Row.fetchAll(db, sql: "SELECT * FROM messages WHERE group_id = ?\(filter) ORDER BY created_at, seq LIMIT ?",
                                arguments: StatementArguments([groupID] + args + [limit])).map(Self.decode)
    }

    /// The page before `before` (newest last), for scrolling back from the newest message.
    package func history(groupID: String, before: (createdAt: Int64, sequence: Int64), limit: Int,
                         visibleAt now: Int64? = nil, excludingKinds: [Int] = []) throws -> [StoredMessage] {
        let (filter, args) = Self.visibility(now: now, excludingKinds: excludingKinds)
        return try Row.fetchAll(db, sql: """
            SELECT * FROM messages WHERE group_id = ? AND (created_at, seq) < (?, ?)\(filter)
            ORDER BY created_at DESC, seq DESC LIMIT ?
            """, arguments: StatementArguments([groupID, before.createdAt, before.sequence] + args + [limit])).map(Self.decode).reversed()
    }

    /// The one filter of what a read shows: rows past their expiry at `now` and rows of `kinds`
    /// left out (a SQL suffix and its arguments).
    static func visibility(now: Int64?, excludingKinds kinds: [Int]) -> (String, [any DatabaseValueConvertible]) {
        var sql = "", args: [any DatabaseValueConvertible] = []
        if let now {
            sql += " AND (expires_at IS NULL OR expires_at > ?)"
            args.append(now)
        }
        if !kinds.isEmpty {
            sql += " AND kind NOT IN (\(kinds.map { _ in "?" }.joined(separator: ", ")))"
            args += kinds.map { $0 as any DatabaseValueConvertible }
        }
        return (sql, args)
    }

    /// A group's message by its inner app event id (PROTOCOL §5.15).
    package func find(groupID: String, appEventID: String) throws -> StoredMessage? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM messages WHERE group_id = ? AND app_event_id = ? LIMIT 1"),
                         arguments: [groupID, appEventID]).map(Self.decode)
    }

    /// At most two messages of a group whose app event id starts with `prefix` (lowercase hex):
    /// one means the prefix names it.
    package func find(groupID: String, appEventIDPrefix prefix: String) throws -> [StoredMessage] {
        guard prefix.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return [] }
        return try Row.fetchAll(db, sql: "SELECT * FROM messages WHERE group_id = ? AND app_event_id >= ? AND app_event_id < ? LIMIT 2",
                                arguments: [groupID, prefix, prefix + "g"]).map(Self.decode)
    }

    /// The messages of a group that point at one of `appEventIDs` (reactions, replies, edits,
    /// deletions), in history order.
    package func referring(groupID: String, to appEventIDs: [String], visibleAt now: Int64? = nil) throws -> [StoredMessage] {
        guard !appEventIDs.isEmpty else { return [] }
        var out: [StoredMessage] = []
        // SQLite's bound-parameter limit is far above a page, but a page may be 10 000 rows.
        for start in stride(from: 0, to: appEventIDs.count, by: 500) {
            let ids = Array(appEventIDs[start..<min(start + 500, appEventIDs.count)])
            let (filter, args) = Self.visibility(now: now, excludingKinds: [])
            out += try Row.fetchAll(db, sql: """
                SELECT * FROM messages WHERE group_id = ? AND refers_to IN (\(ids.map { _ in "?" }.joined(separator: ", ")))\(filter)
                ORDER BY created_at, seq
                """, arguments: StatementArguments([groupID] + ids + args)).map(Self.decode)
        }
        return out
    }

    /// Applies its author's deletion: the content and tags are wiped, the row stays as a marker.
    package func markDeleted(groupID: String, appEventID: String, at time: Int64) throws {
        try db.execute(sql: """
            UPDATE messages SET content = '', tags = '[]', deleted_at = ? WHERE group_id = ? AND app_event_id = ? AND deleted_at IS NULL
            """, arguments: [time, groupID, appEventID])
    }

    /// The earliest time retention removes a message, if any message expires.
    package func earliestExpiry() throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT min(expires_at) FROM messages WHERE expires_at IS NOT NULL"))
    }

    /// Removes every message whose retention ended at or before `now`; returns how many per group.
    package func deleteExpired(now: Int64) throws -> [String: Int] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT group_id, count(*) AS n FROM messages WHERE expires_at IS NOT NULL AND expires_at <= ? GROUP BY group_id
            """, arguments: [now])
        guard !rows.isEmpty else { return [:] }
        try db.execute(sql: "DELETE FROM messages WHERE expires_at IS NOT NULL AND expires_at <= ?", arguments: [now])
        return Dictionary(uniqueKeysWithValues: rows.map { ($0["group_id"] as String, $0["n"] as Int) })
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
        StoredMessage(eventID: row["event_id"], appEventID: row["app_event_id"], groupID: row["group_id"], sender: row.bytes("sender"),
                      createdAt: row["created_at"], kind: row["kind"], content: row["content"], tags: decode(tags: row["tags"]),
                      refersTo: row["refers_to"], expiresAt: row["expires_at"], deletedAt: row["deleted_at"], outgoing: row["outgoing"],
                      status: StoredMessage.Status(rawValue: row["status"]) ?? .received, sequence: row["seq"])
    }

    /// Tags as a JSON array of string arrays (docs/storage.md §6).
    static func encode(tags: [[String]]) -> String {
        guard !tags.isEmpty, let data = try? JSONEncoder().encode(tags) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }

    /// A column that is not such an array (written by something else) reads as no tags.
    static func decode(tags json: String?) -> [[String]] {
        guard let json, json != "[]" else { return [] }
        return (try? JSONDecoder().decode([[String]].self, from: Data(json.utf8))) ?? []
    }
}
