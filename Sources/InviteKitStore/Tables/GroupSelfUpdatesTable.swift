import Foundation
import GRDB

/// `group_self_updates` (docs/storage.md §6): when this node last rotated its own leaf in each
/// group, so the self-update policy (PROTOCOL §5.16) survives a restart.
package struct GroupSelfUpdatesTable {
    let db: Database

    /// When this node's leaf was last rotated in the group, if the policy has seen the group.
    package func lastUpdate(groupID: String) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT last_update_at FROM group_self_updates WHERE group_id = ?", arguments: [groupID])
    }

    /// An own Commit with an UpdatePath was applied at `now`: the policy's clock starts again, and
    /// its message count from the newest `messages.seq` (exact where `created_at` has one-second
    /// resolution).
    package func record(groupID: String, at now: Int64) throws {
        try db.execute(sql: """
            INSERT INTO group_self_updates(group_id, last_update_at, last_update_seq)
            VALUES (?, ?, (SELECT coalesce(max(seq), 0) FROM messages))
            ON CONFLICT(group_id) DO UPDATE SET last_update_at = excluded.last_update_at, last_update_seq = excluded.last_update_seq
            """, arguments: [groupID, now])
    }

    /// Own messages in the group stored since the last rotation: what the message bound counts.
    package func messagesSent(groupID: String) throws -> Int {
        try Int.fetchOne(db, sql: """
            SELECT count(*) FROM messages WHERE group_id = ? AND outgoing = 1
            AND seq > coalesce((SELECT last_update_seq FROM group_self_updates WHERE group_id = ?), 0)
            """, arguments: [groupID, groupID]) ?? 0
    }
}
