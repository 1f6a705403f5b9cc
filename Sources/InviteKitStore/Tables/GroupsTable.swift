import Foundation
import GRDB
import InviteKitCrypto

/// Groups and their engine state.
package struct GroupsTable {
    let db: Database

    /// Inserts or replaces the whole row.
    package func save(_ g: StoredGroup) throws {
        try db.execute(sql: """
            INSERT INTO groups(id, nostr_group_id, name, engine, engine_version, state, epoch, current_tag, relays, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET nostr_group_id = excluded.nostr_group_id, name = excluded.name,
                engine = excluded.engine, engine_version = excluded.engine_version, state = excluded.state,
                epoch = excluded.epoch, current_tag = excluded.current_tag, relays = excluded.relays,
                updated_at = excluded.updated_at
            """, arguments: [g.id, g.nostrGroupID, g.name, g.engine, g.engineVersion, g.state.exportBytes().data,
                             Int64(bitPattern: g.epoch), g.currentTag, g.relays.joined(separator: "\n"), g.updatedAt])
    }

    /// Replaces the engine state after a Commit was applied.
    package func updateState(id: String, state: SecureBytes, epoch: UInt64, engineVersion: Int? = nil, now: Int64) throws {
        try db.execute(sql: """
            UPDATE groups SET state = ?, epoch = ?, engine_version = coalesce(?, engine_version), updated_at = ? WHERE id = ?
            """, arguments: [state.exportBytes().data, Int64(bitPattern: epoch), engineVersion, now, id])
        guard db.changesCount == 1 else { throw StoreError(.notFound, "no group \(id)") }
    }

    /// Rotates the invite tag; every invite carrying another tag is marked revoked.
    package func setTag(id: String, tag: String, now: Int64) throws {
        try db.execute(sql: "UPDATE groups SET current_tag = ?, updated_at = ? WHERE id = ?", arguments: [tag, now, id])
        guard db.changesCount == 1 else { throw StoreError(.notFound, "no group \(id)") }
        // A Whistle code names no tag, so rotating one does not revoke it (each join waits for approval).
        try db.execute(sql: "UPDATE invites SET revoked_at = ? WHERE group_id = ? AND tag <> ? AND revoked_at IS NULL AND format <> 'whistle'",
                       arguments: [now, id, tag])
    }

    /// A Commit renamed the group or moved its relays (PROTOCOL §5.16).
    package func updateNameAndRelays(id: String, name: String?, relays: [String], now: Int64) throws {
        try db.execute(sql: "UPDATE groups SET name = ?, relays = ?, updated_at = ? WHERE id = ?",
                       arguments: [name, relays.joined(separator: "\n"), now, id])
        guard db.changesCount == 1 else { throw StoreError(.notFound, "no group \(id)") }
    }

    /// Records that a Commit removed this node from the group.
    /// The group is this node's again (a Welcome after a removal): its events are read again.
    package func clearRemoved(id: String) throws {
        try db.execute(sql: "UPDATE groups SET removed_at = NULL WHERE id = ?", arguments: [id])
    }

    package func markRemoved(id: String, now: Int64) throws {
        try db.execute(sql: "UPDATE groups SET removed_at = coalesce(removed_at, ?), updated_at = ? WHERE id = ?", arguments: [now, now, id])
    }

    package func get(id: String) throws -> StoredGroup? {
        try Row.fetchOne(db, sql: "SELECT * FROM groups WHERE id = ?", arguments: [id]).map(Self.decode)
    }

    /// By the private id or the public `h`-tag id.
    package func find(_ anyID: String) throws -> StoredGroup? {
        try Row.fetchOne(db, sql: "SELECT * FROM groups WHERE id = ? OR nostr_group_id = ?", arguments: [anyID, anyID]).map(Self.decode)
    }

    package func all() throws -> [StoredGroup] {
        try Row.fetchAll(db, sql: "SELECT * FROM groups ORDER BY name, id").map(Self.decode)
    }

    package func count() throws -> Int { try Int.fetchOne(db, sql: "SELECT count(*) FROM groups") ?? 0 }

    package func delete(id: String) throws {
        try db.execute(sql: "DELETE FROM groups WHERE id = ?", arguments: [id])
    }

    static func decode(_ row: Row) -> StoredGroup {
        let relays: String = row["relays"]
        return StoredGroup(id: row["id"], nostrGroupID: row["nostr_group_id"], name: row["name"], engine: row["engine"],
                           engineVersion: row["engine_version"], state: SecureBytes(copying: row.bytes("state")),
                           epoch: UInt64(bitPattern: row["epoch"]), currentTag: row["current_tag"],
                           relays: relays.isEmpty ? [] : relays.components(separatedBy: "\n"), updatedAt: row["updated_at"],
                           removedAt: row["removed_at"])
    }
}
