import Foundation
import GRDB

/// Single-use invites already used. The primary key makes `consume` atomic across connections
/// and processes: of several writers racing on one key, exactly one inserts the row.
package struct ConsumedTagsTable {
    let db: Database

    /// `true` when this call used `key`, `false` when it was already used.
    package func consume(_ key: String, requestID: String? = nil, now: Int64) throws -> Bool {
        try db.execute(sql: "INSERT OR IGNORE INTO consumed_tags(key, request_id, consumed_at) VALUES (?, ?, ?)",
                       arguments: [key, requestID, now])
        return db.changesCount == 1
    }

    /// Releases what `requestID` consumed: its join never happened (no relay stored its Commit),
    /// so the invite was not used. Returns how many rows went.
    @discardableResult
    package func release(requestID: String) throws -> Int {
        try db.execute(sql: "DELETE FROM consumed_tags WHERE request_id = ?", arguments: [requestID])
        return db.changesCount
    }

    package func isConsumed(_ key: String) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM consumed_tags WHERE key = ?)", arguments: [key]) ?? false
    }
}
