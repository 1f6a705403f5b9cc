import Foundation
import GRDB

/// Applies ``Schema/migrations`` in order. Each migration, its `schema_migrations` row and the
/// new `PRAGMA user_version` commit in one transaction, so a crash leaves the database at the
/// previous version, never between two.
enum Migrator {
    static func migrate(_ store: Store, to target: Int? = nil) throws {
        let target = target ?? Schema.currentVersion
        try store.raw { db in
            let found: Int
            do {
                found = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            } catch {
                throw StoreError.from(error, opening: true)
            }
            if found > Schema.currentVersion {
                throw StoreError(.schemaTooNew, "database schema v\(found), this InviteKit knows up to v\(Schema.currentVersion)")
            }
            for migration in Schema.migrations where migration.version > found && migration.version <= target {
                do {
                    try db.inTransaction(.immediate) {
                        try db.execute(sql: """
                            CREATE TABLE IF NOT EXISTS schema_migrations (
                                version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)
                            """)
                        for statement in migration.statements { try db.execute(sql: statement) }
                        FailPoint.hit("migration.v\(migration.version)")
                        try db.execute(sql: "INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)",
                                       arguments: [migration.version, migration.name, Int64(Date().timeIntervalSince1970)])
                        try db.execute(sql: "PRAGMA user_version = \(migration.version)")
                        return .commit
                    }
                } catch let error as StoreError {
                    throw error
                } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB {
                    throw StoreError(.corrupt, "sqlite \(error.extendedResultCode.rawValue)")
                } catch {
                    throw StoreError(.migrationFailed, "v\(migration.version) \(migration.name): \(StoreError.from(error))")
                }
            }
        }
    }
}
