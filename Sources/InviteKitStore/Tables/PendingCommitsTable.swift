import Foundation
import GRDB
import InviteKitCrypto

/// Commits waiting for a relay's `OK`.
package struct PendingCommitsTable {
    let db: Database

    package func insert(_ p: PendingCommitRecord) throws {
        try db.execute(sql: """
            INSERT INTO pending_commits(commit_event_id, group_id, epoch, request_id, joiner, key_package_event_id, payload,
                                        status, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [p.commitEventID, p.groupID, Int64(bitPattern: p.epoch), p.requestID, p.joiner?.data,
                             p.keyPackageEventID, p.payload.exportBytes().data, p.status.rawValue, p.createdAt])
    }

    package func get(commitEventID: String) throws -> PendingCommitRecord? {
        try Row.fetchOne(db, sql: "SELECT * FROM pending_commits WHERE commit_event_id = ?", arguments: [commitEventID]).map(Self.decode)
    }

    /// Still waiting, oldest first (what a restarted node must finish or roll back).
    package func waiting(groupID: String? = nil) throws -> [PendingCommitRecord] {
        if let groupID {
            return try Row.fetchAll(db, sql: "SELECT * FROM pending_commits WHERE status = 'waiting' AND group_id = ? ORDER BY created_at, commit_event_id",
                                    arguments: [groupID]).map(Self.decode)
        }
        return try Row.fetchAll(db, sql: "SELECT * FROM pending_commits WHERE status = 'waiting' ORDER BY created_at, commit_event_id").map(Self.decode)
    }

    /// Confirms or rolls back a waiting commit. Throws ``StoreError/Code/invalidTransition`` if it
    /// is not waiting, so a late second `OK` cannot apply it twice. The payload is wiped.
    package func resolve(commitEventID: String, as status: PendingCommitRecord.Status, now: Int64) throws {
        precondition(status != .waiting)
        try db.execute(sql: """
            UPDATE pending_commits SET status = ?, resolved_at = ?, payload = x'' WHERE commit_event_id = ? AND status = 'waiting'
            """, arguments: [status.rawValue, now, commitEventID])
        guard db.changesCount == 1 else { throw StoreError(.invalidTransition, "commit \(commitEventID) is not waiting") }
    }

    /// A confirmed Commit that convergence replaced before its Welcomes were released (PROTOCOL
    /// §5.13, "Welcome hold") is `rolled_back` after all: what waited on it reads it as lost.
    /// Throws ``StoreError/Code/invalidTransition`` if it is not confirmed.
    package func replace(commitEventID: String, now: Int64) throws {
        try db.execute(sql: """
            UPDATE pending_commits SET status = 'rolled_back', resolved_at = ? WHERE commit_event_id = ? AND status = 'confirmed'
            """, arguments: [now, commitEventID])
        guard db.changesCount == 1 else { throw StoreError(.invalidTransition, "commit \(commitEventID) is not confirmed") }
    }

    static func decode(_ row: Row) -> PendingCommitRecord {
        PendingCommitRecord(commitEventID: row["commit_event_id"], groupID: row["group_id"], epoch: UInt64(bitPattern: row["epoch"]),
                            requestID: row["request_id"], joiner: row.optionalBytes("joiner"),
                            keyPackageEventID: row["key_package_event_id"], payload: SecureBytes(copying: row.bytes("payload")),
                            status: PendingCommitRecord.Status(rawValue: row["status"]) ?? .waiting, createdAt: row["created_at"])
    }
}
