import Foundation
import GRDB

/// A group's buffered kind-445 events (PROTOCOL §5.9; docs/storage.md §6): the engine bounds them; the table
/// mirrors the engine's buffer, changed by difference so one event costs one row.
package struct BufferedEventsTable {
    let db: Database

    /// The group's buffered events' JSON, oldest first.
    package func all(groupID: String) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT event_json FROM buffered_events WHERE group_id = ? ORDER BY position", arguments: [groupID])
    }

    /// Makes the stored buffer hold exactly the events `ids` (oldest first): rows not in it go,
    /// new ones are appended after the newest with `json(i)`, the JSON of `ids[i]`, asked for
    /// new events only.
    package func replace(groupID: String, ids: [String], json: (Int) -> String) throws {
        let stored = Set(try String.fetchAll(db.cachedStatement(sql: "SELECT event_id FROM buffered_events WHERE group_id = ?"), arguments: [groupID]))
        let wanted = Set(ids)
        let delete = try db.cachedStatement(sql: "DELETE FROM buffered_events WHERE group_id = ? AND event_id = ?")
        for gone in stored.subtracting(wanted) { try delete.execute(arguments: [groupID, gone]) }
        var next = (try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(position) FROM buffered_events WHERE group_id = ?"), arguments: [groupID]) ?? 0) + 1
        let insert = try db.cachedStatement(sql: "INSERT INTO buffered_events(group_id, event_id, event_json, position) VALUES (?, ?, ?, ?)")
        for (i, id) in ids.enumerated() where !stored.contains(id) {
            try insert.execute(arguments: [groupID, id, json(i), next])
            next += 1
        }
    }

    package func count(groupID: String) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM buffered_events WHERE group_id = ?", arguments: [groupID]) ?? 0
    }
}
