import Foundation
import GRDB

extension Store {
    /// What `invitekit doctor` reports about a database, read through a read-only connection
    /// that never creates, migrates or repairs anything: the schema version, the lines of
    /// `PRAGMA integrity_check` (`["ok"]` when sound) and the outbound events some relay has
    /// not settled yet (docs/storage.md §2).
    package static func inspect(path: String) throws -> (schemaVersion: Int, integrity: [String], queuedDeliveries: Int) {
        let store = try openUnmigrated(path: path)
        return try store.read { tx in
            let version = try tx.userVersion()
            let integrity = try String.fetchAll(tx.db, sql: "PRAGMA integrity_check(20)")
            let queued = version >= 1 ? ((try? tx.outbound.unfinishedCount()) ?? 0) : 0
            return (version, integrity, queued)
        }
    }
}
