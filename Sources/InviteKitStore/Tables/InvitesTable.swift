import Foundation
import GRDB

/// The invites this node created.
package struct InvitesTable {
    let db: Database

    package func insert(_ i: StoredInvite) throws {
        try db.execute(sql: """
            INSERT INTO invites(id, tag, group_id, format, url, single_use, expires_at, created_at, revoked_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [i.id, i.tag, i.groupID, i.format.rawValue, i.url, i.singleUse, i.expiresAt, i.createdAt, i.revokedAt])
    }

    package func get(id: String) throws -> StoredInvite? {
        try Row.fetchOne(db, sql: "SELECT * FROM invites WHERE id = ?", arguments: [id]).map(Self.decode)
    }

    package func forGroup(_ groupID: String) throws -> [StoredInvite] {
        try Row.fetchAll(db, sql: "SELECT * FROM invites WHERE group_id = ? ORDER BY created_at, id", arguments: [groupID]).map(Self.decode)
    }

    static func decode(_ row: Row) -> StoredInvite {
        StoredInvite(id: row["id"], tag: row["tag"], groupID: row["group_id"], format: StoredInvite.Format(rawValue: row["format"]) ?? .signed,
                     url: row["url"], singleUse: row["single_use"], expiresAt: row["expires_at"], createdAt: row["created_at"],
                     revokedAt: row["revoked_at"])
    }
}
