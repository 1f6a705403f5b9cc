import Foundation
import GRDB

/// `group_read_state` (docs/storage.md §6): read marks, mute and pin per group. A group without
/// a row is unread from its first message, not muted, not pinned.
package struct GroupReadStateTable {
    let db: Database

    /// The group's state, with its unread count: messages from others ordered after the last one
    /// read (`(created_at, seq)`, the history's order) that a history read at `now` without
    /// `excludingKinds` shows, so what is never a row of the conversation is never unread.
    package func get(groupID: String, visibleAt now: Int64, excludingKinds kinds: [Int]) throws -> GroupReadState {
        let row = try Row.fetchOne(db, sql: "SELECT * FROM group_read_state WHERE group_id = ?", arguments: [groupID])
        let createdAt: Int64? = row?["last_read_created_at"], seq: Int64? = row?["last_read_seq"]
        let (filter, args) = MessagesTable.visibility(now: now, excludingKinds: kinds)
        let unread: Int
        if let createdAt, let seq {
            unread = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM messages WHERE group_id = ? AND outgoing = 0 AND (created_at, seq) > (?, ?)\(filter)
                """, arguments: StatementArguments([groupID, createdAt, seq] + args)) ?? 0
        } else {
            unread = try Int.fetchOne(db, sql: "SELECT count(*) FROM messages WHERE group_id = ? AND outgoing = 0\(filter)",
                                      arguments: StatementArguments([groupID] + args)) ?? 0
        }
        return GroupReadState(groupID: groupID, lastReadEventID: row?["last_read_event_id"], unreadCount: unread,
                              muted: (row?["muted"] as Int64?) == 1, pinnedAt: row?["pinned_at"])
    }

    /// Marks everything up to `message` read. A mark never moves back: an older message leaves
    /// the newer mark in place. Returns whether the mark moved.
    @discardableResult
    package func markRead(_ message: StoredMessage, now: Int64) throws -> Bool {
        try ensureRow(message.groupID, now: now)
        try db.execute(sql: """
            UPDATE group_read_state SET last_read_event_id = ?, last_read_created_at = ?, last_read_seq = ?, updated_at = ?
            WHERE group_id = ? AND (last_read_created_at IS NULL OR (last_read_created_at, last_read_seq) < (?, ?))
            """, arguments: [message.eventID, message.createdAt, message.sequence, now, message.groupID, message.createdAt, message.sequence])
        return db.changesCount == 1
    }

    package func setMuted(groupID: String, _ muted: Bool, now: Int64) throws {
        try ensureRow(groupID, now: now)
        try db.execute(sql: "UPDATE group_read_state SET muted = ?, updated_at = ? WHERE group_id = ?", arguments: [muted ? 1 : 0, now, groupID])
    }

    /// Pins at `now` (an already pinned group keeps its first time) or unpins.
    package func setPinned(groupID: String, _ pinned: Bool, now: Int64) throws {
        try ensureRow(groupID, now: now)
        try db.execute(sql: "UPDATE group_read_state SET pinned_at = CASE WHEN ? THEN coalesce(pinned_at, ?) ELSE NULL END, updated_at = ? WHERE group_id = ?",
                       arguments: [pinned, now, now, groupID])
    }

    private func ensureRow(_ groupID: String, now: Int64) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO group_read_state(group_id, updated_at) VALUES (?, ?)", arguments: [groupID, now])
    }
}
