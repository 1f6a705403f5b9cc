import Foundation
import GRDB

/// A group's seen log as rows (docs/storage.md §6): an accepted event inserts its values, and rows
/// leave as the engine forgets them, so a message writes two small rows instead of rewriting a
/// growing state.
package struct GroupSeenTable {
    let db: Database

    /// Rows per `INSERT`: the values a migrated log brings at once stay under SQLite's bound on
    /// bound parameters.
    static let rowsPerInsert = 128

    /// The group's values, oldest first.
    package func all(groupID: String) throws -> [StoredSeenValue] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT epoch, kind, value, seq FROM group_seen WHERE group_id = ? ORDER BY seq"),
                         arguments: [groupID]).map {
            StoredSeenValue(epoch: UInt64(bitPattern: $0["epoch"] as Int64), kind: $0["kind"] as Int, value: $0.bytes("value"),
                            sequence: UInt64(bitPattern: $0["seq"] as Int64))
        }
    }

    /// Applies what the log changed since it was last saved, in its order: the rows of epochs
    /// below `prunedBelow` go, then each epoch's rows up to its `evictedThrough` sequence, then
    /// `added` is inserted (a value held already takes the new epoch and place).
    package func write(groupID: String, prunedBelow: UInt64?, evictedThrough: [UInt64: UInt64], added: [StoredSeenValue]) throws {
        if let below = prunedBelow {
            try db.cachedStatement(sql: "DELETE FROM group_seen WHERE group_id = ? AND epoch < ?").execute(arguments: [groupID, Int64(bitPattern: below)])
        }
        for (epoch, through) in evictedThrough {
            try db.cachedStatement(sql: "DELETE FROM group_seen WHERE group_id = ? AND epoch = ? AND seq <= ?")
                .execute(arguments: [groupID, Int64(bitPattern: epoch), Int64(bitPattern: through)])
        }
        var start = 0
        while start < added.count {
            let batch = added[start..<min(added.count, start + Self.rowsPerInsert)]
            start = batch.endIndex
            var arguments = StatementArguments()
            for v in batch { arguments += [groupID, Int64(bitPattern: v.epoch), v.kind, v.value.data, Int64(bitPattern: v.sequence)] }
            // Not a cached statement: one kept by the cache with a blob argument bound leaked that
            // blob under LeakSanitizer (see `TreeChunksTable`).
            try db.execute(sql: """
                INSERT INTO group_seen(group_id, epoch, kind, value, seq) VALUES \(Array(repeating: "(?, ?, ?, ?, ?)", count: batch.count).joined(separator: ", "))
                ON CONFLICT(group_id, kind, value) DO UPDATE SET epoch = excluded.epoch, seq = excluded.seq
                """, arguments: arguments)
        }
    }

    package func count(groupID: String) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM group_seen WHERE group_id = ?", arguments: [groupID]) ?? 0
    }
}
