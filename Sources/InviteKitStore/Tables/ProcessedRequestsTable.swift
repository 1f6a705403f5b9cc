import Foundation
import GRDB

/// Join requests already decided (by rumor id, and by the outer gift wrap's id).
package struct ProcessedRequestsTable {
    let db: Database

    /// Records a decision. `false` (and nothing written) when the request was already decided:
    /// the caller must then send nothing.
    package func record(_ r: ProcessedRequest) throws -> Bool {
        try db.execute(sql: """
            INSERT OR IGNORE INTO processed_requests(rumor_id, wrap_id, outcome, group_id, processed_at) VALUES (?, ?, ?, ?, ?)
            """, arguments: [r.rumorID, r.wrapID, r.outcome, r.groupID, r.processedAt])
        return db.changesCount == 1
    }

    package func get(rumorID: String) throws -> ProcessedRequest? {
        try Row.fetchOne(db, sql: "SELECT * FROM processed_requests WHERE rumor_id = ?", arguments: [rumorID]).map(Self.decode)
    }

    package func contains(rumorID: String) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM processed_requests WHERE rumor_id = ?)", arguments: [rumorID]) ?? false
    }

    /// Lets catch-up skip a wrap it already handled without decrypting it.
    package func contains(wrapID: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS(SELECT 1 FROM processed_requests WHERE wrap_id = ?)"), arguments: [wrapID]) ?? false
    }

    /// When each group was last joined through a Welcome (outcome `welcome`), by group id.
    package func lastWelcomeByGroup() throws -> [String: Int64] {
        var out: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT group_id, max(processed_at) AS at FROM processed_requests WHERE outcome = 'welcome' AND group_id IS NOT NULL GROUP BY group_id
            """) {
            out[row["group_id"]] = row["at"]
        }
        return out
    }

    package func count() throws -> Int { try Int.fetchOne(db, sql: "SELECT count(*) FROM processed_requests") ?? 0 }

    static func decode(_ row: Row) -> ProcessedRequest {
        ProcessedRequest(rumorID: row["rumor_id"], wrapID: row["wrap_id"], outcome: row["outcome"], groupID: row["group_id"],
                         processedAt: row["processed_at"])
    }
}
