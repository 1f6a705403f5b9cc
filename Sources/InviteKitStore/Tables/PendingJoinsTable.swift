import Foundation
import GRDB

/// The joiner's joins in flight, so `join --resume` or `serve` can finish one after a restart.
package struct PendingJoinsTable {
    let db: Database

    package func insert(_ j: PendingJoinRecord) throws {
        try db.execute(sql: """
            INSERT INTO pending_joins(id, invite_url, invite_tag, inviter, relays, key_package_ref, key_package_event_id,
                request_event_id, state, group_id, error_type, error_tag, error_reason, error_at, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [j.id, j.inviteURL, j.inviteTag, j.inviter.data, j.relays.joined(separator: "\n"), j.keyPackageRef?.data,
                             j.keyPackageEventID, j.requestEventID, j.state.rawValue, j.groupID, j.errorType, j.errorTag,
                             j.errorReason, j.errorAt, j.createdAt, j.updatedAt])
    }

    package func get(id: String) throws -> PendingJoinRecord? {
        try Row.fetchOne(db, sql: "SELECT * FROM pending_joins WHERE id = ?", arguments: [id]).map(Self.decode)
    }

    /// Joins still waiting for a Welcome or an error, oldest first.
    package func active() throws -> [PendingJoinRecord] {
        try Row.fetchAll(db, sql: "SELECT * FROM pending_joins WHERE state = 'requested' ORDER BY created_at, id").map(Self.decode)
    }

    package func all() throws -> [PendingJoinRecord] {
        try Row.fetchAll(db, sql: "SELECT * FROM pending_joins ORDER BY created_at, id").map(Self.decode)
    }

    /// Ends a waiting join as joined. Throws ``StoreError/Code/invalidTransition`` if it is not
    /// waiting, so a second Welcome never joins twice.
    package func markJoined(id: String, groupID: String, now: Int64) throws {
        try db.execute(sql: "UPDATE pending_joins SET state = 'joined', group_id = ?, updated_at = ? WHERE id = ? AND state = 'requested'",
                       arguments: [groupID, now, id])
        guard db.changesCount == 1 else { throw StoreError(.invalidTransition, "join \(id) is not waiting") }
    }

    /// Ends a waiting join with the inviter's raw `invite_join_error` fields.
    package func markFailed(id: String, errorType: String, errorTag: String?, reason: String?, at: Int64, now: Int64) throws {
        try db.execute(sql: """
            UPDATE pending_joins SET state = 'failed', error_type = ?, error_tag = ?, error_reason = ?, error_at = ?, updated_at = ?
            WHERE id = ? AND state = 'requested'
            """, arguments: [errorType, errorTag, reason, at, now, id])
        guard db.changesCount == 1 else { throw StoreError(.invalidTransition, "join \(id) is not waiting") }
    }

    package func cancel(id: String, now: Int64) throws {
        try db.execute(sql: "UPDATE pending_joins SET state = 'cancelled', updated_at = ? WHERE id = ? AND state = 'requested'",
                       arguments: [now, id])
    }

    static func decode(_ row: Row) -> PendingJoinRecord {
        let relays: String = row["relays"]
        return PendingJoinRecord(
            id: row["id"], inviteURL: row["invite_url"], inviteTag: row["invite_tag"], inviter: row.bytes("inviter"),
            relays: relays.isEmpty ? [] : relays.components(separatedBy: "\n"), keyPackageRef: row.optionalBytes("key_package_ref"),
            keyPackageEventID: row["key_package_event_id"], requestEventID: row["request_event_id"],
            state: PendingJoinRecord.State(rawValue: row["state"]) ?? .requested, groupID: row["group_id"],
            errorType: row["error_type"], errorTag: row["error_tag"], errorReason: row["error_reason"], errorAt: row["error_at"],
            createdAt: row["created_at"], updatedAt: row["updated_at"])
    }
}
