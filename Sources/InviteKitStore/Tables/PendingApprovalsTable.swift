import Foundation
import GRDB

/// Whistle join requests waiting for an admin (docs/storage.md §6).
package struct PendingApprovalsTable {
    let db: Database

    /// Stores a request as waiting. `false` (nothing written) when its request id is known.
    @discardableResult
    package func insert(_ a: PendingApprovalRecord) throws -> Bool {
        try db.execute(sql: """
            INSERT OR IGNORE INTO pending_approvals(request_id, wrap_id, group_id, joiner, key_package_event, status, commit_event_id,
                                                    created_at, resolved_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [a.requestID, a.wrapID, a.groupID, a.joiner.data, a.keyPackageEventJSON, a.status.rawValue, a.commitEventID,
                             a.createdAt, a.resolvedAt])
        return db.changesCount == 1
    }

    package func get(requestID: String) throws -> PendingApprovalRecord? {
        try Row.fetchOne(db, sql: "SELECT * FROM pending_approvals WHERE request_id = ?", arguments: [requestID]).map(Self.decode)
    }

    /// Waiting requests of a group (optionally of one joiner), oldest first.
    package func waiting(groupID: String, joiner: [UInt8]? = nil) throws -> [PendingApprovalRecord] {
        if let joiner {
            return try Row.fetchAll(db, sql: """
                SELECT * FROM pending_approvals WHERE status = 'waiting' AND group_id = ? AND joiner = ? ORDER BY created_at, request_id
                """, arguments: [groupID, joiner.data]).map(Self.decode)
        }
        return try Row.fetchAll(db, sql: "SELECT * FROM pending_approvals WHERE status = 'waiting' AND group_id = ? ORDER BY created_at, request_id",
                                arguments: [groupID]).map(Self.decode)
    }

    package func all() throws -> [PendingApprovalRecord] {
        try Row.fetchAll(db, sql: "SELECT * FROM pending_approvals ORDER BY created_at, request_id").map(Self.decode)
    }

    /// Ends every waiting request of `joiner` in the group as approved (naming the Commit) or
    /// declined. Throws ``StoreError/Code/invalidTransition`` when none was waiting, so a second
    /// approval never queues a second Commit. Returns how many it ended.
    @discardableResult
    package func resolve(groupID: String, joiner: [UInt8], as status: PendingApprovalRecord.Status, commitEventID: String? = nil,
                        now: Int64) throws -> Int {
        precondition(status != .waiting)
        try db.execute(sql: """
            UPDATE pending_approvals SET status = ?, commit_event_id = ?, resolved_at = ?
            WHERE group_id = ? AND joiner = ? AND status = 'waiting'
            """, arguments: [status.rawValue, commitEventID, now, groupID, joiner.data])
        let n = db.changesCount
        guard n > 0 else { throw StoreError(.invalidTransition, "no waiting approval for this member") }
        return n
    }

    /// An approval whose Commit every relay refused waits again, so the admin can approve it anew.
    package func reopen(commitEventID: String) throws {
        try db.execute(sql: """
            UPDATE pending_approvals SET status = 'waiting', commit_event_id = NULL, resolved_at = NULL
            WHERE commit_event_id = ? AND status = 'approved'
            """, arguments: [commitEventID])
    }

    static func decode(_ row: Row) -> PendingApprovalRecord {
        PendingApprovalRecord(requestID: row["request_id"], wrapID: row["wrap_id"], groupID: row["group_id"], joiner: row.bytes("joiner"),
                              keyPackageEventJSON: row["key_package_event"],
                              status: PendingApprovalRecord.Status(rawValue: row["status"]) ?? .waiting,
                              commitEventID: row["commit_event_id"], createdAt: row["created_at"], resolvedAt: row["resolved_at"])
    }
}
