import Foundation
import GRDB

/// A group's current ratchet tree in chunks (docs/storage.md §6): opaque to the store, written by
/// difference so a save costs the chunks that changed.
package struct TreeChunksTable {
    let db: Database

    /// Writes `changed` (chunk index, bytes) and drops every chunk at or past `count`: the
    /// stored tree then has chunks `0..<count`, provided the ones not given were current.
    package func write(groupID: String, changed: [(index: Int, bytes: [UInt8])], count: Int) throws {
        // Not a cached statement: one kept by the cache with a blob argument bound leaked that
        // blob under LeakSanitizer (fuzz-node-inbound); a commit writes a few chunks.
        for (index, bytes) in changed where index < count {
            try db.execute(sql: """
                INSERT INTO group_tree_chunks(group_id, chunk, nodes) VALUES (?, ?, ?)
                ON CONFLICT(group_id, chunk) DO UPDATE SET nodes = excluded.nodes
                """, arguments: [groupID, index, bytes.data])
        }
        try db.cachedStatement(sql: "DELETE FROM group_tree_chunks WHERE group_id = ? AND chunk >= ?").execute(arguments: [groupID, count])
    }

    /// The group's chunks in order. Fails with `corrupt` when they are not exactly `0..<n`.
    package func all(groupID: String) throws -> [[UInt8]] {
        let rows = try Row.fetchAll(db.cachedStatement(sql: "SELECT chunk, nodes FROM group_tree_chunks WHERE group_id = ? ORDER BY chunk"),
                                    arguments: [groupID])
        var out: [[UInt8]] = []
        out.reserveCapacity(rows.count)
        for (i, row) in rows.enumerated() {
            guard row["chunk"] as Int == i else { throw StoreError(.corrupt, "group \(groupID): tree chunk \(i) is missing") }
            out.append([UInt8](row["nodes"] as Data))
        }
        return out
    }
}
