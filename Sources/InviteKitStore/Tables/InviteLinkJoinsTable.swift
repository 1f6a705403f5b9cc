import Foundation
import GRDB
import InviteKitCrypto

/// `invite_link_joins` (docs/storage.md §6): one row per request context a requester consented
/// to, written before any of its records is handed to a relay.
package struct InviteLinkJoinsTable {
    let db: Database

    /// Inserts a new attempt; a second row for one request id is refused (`invalid_record`).
    package func insert(_ r: InviteLinkJoinRecord) throws {
        guard try get(requestID: r.requestID) == nil else { throw StoreError(.invalidRecord, "invite link join \(r.requestID) exists") }
        try save(r)
    }

    /// Writes the row as it is now (the attempt changed: a refresh, a notice, a Welcome).
    package func save(_ r: InviteLinkJoinRecord) throws {
        try db.execute(sql: """
            INSERT OR REPLACE INTO invite_link_joins(request_id, link_id, code_relays, attempt, state, valid_until, last_request_event_id,
                group_id, failure, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [r.requestID, r.linkID, r.codeRelays.joined(separator: "\n"), r.attempt.exportBytes().data, r.state, r.validUntil,
                             r.lastRequestEventID, r.groupID, r.failure, r.createdAt, r.updatedAt])
    }

    package func get(requestID: String) throws -> InviteLinkJoinRecord? {
        try Row.fetchOne(db, sql: "SELECT * FROM invite_link_joins WHERE request_id = ?", arguments: [requestID]).map(Self.record)
    }

    /// Every attempt, oldest first.
    package func all() throws -> [InviteLinkJoinRecord] {
        try Row.fetchAll(db, sql: "SELECT * FROM invite_link_joins ORDER BY created_at, request_id").map(Self.record)
    }

    private static func record(_ row: Row) -> InviteLinkJoinRecord {
        let relays: String = row["code_relays"]
        return InviteLinkJoinRecord(requestID: row["request_id"], linkID: row["link_id"],
                                    codeRelays: relays.isEmpty ? [] : relays.components(separatedBy: "\n"),
                                    attempt: SecureBytes(copying: row.bytes("attempt")), state: row["state"], validUntil: row["valid_until"],
                                    lastRequestEventID: row["last_request_event_id"], groupID: row["group_id"], failure: row["failure"],
                                    createdAt: row["created_at"], updatedAt: row["updated_at"])
    }
}
