import XCTest
import GRDB
@testable import InviteKitStore

final class MigrationTests: XCTestCase {
    func testFreshDatabaseIsAtTheCurrentVersionWithOneRowPerMigration() throws {
        let store = try Store.inMemory()
        XCTAssertEqual(try store.schemaVersion(), Schema.currentVersion)
        let versions = try store.raw { db in try Int.fetchAll(db, sql: "SELECT version FROM schema_migrations ORDER BY version") }
        XCTAssertEqual(versions, Schema.migrations.map(\.version))
    }

    func testVersionOneDatabaseMigratesOnOpenAndKeepsItsRows() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("v1.sqlite")
        do {
            let v1 = try Store.open(path: path, migrateTo: 1)
            XCTAssertEqual(try v1.schemaVersion(), 1)
            // Rows as v1 wrote them (v1 has no wrap_id column yet).
            try v1.raw { db in
                try db.execute(sql: "INSERT INTO processed_requests(rumor_id, outcome, group_id, processed_at) VALUES ('r1', 'accepted', NULL, 5)")
                try db.execute(sql: "INSERT INTO consumed_tags(key, request_id, consumed_at) VALUES ('k1', NULL, 5)")
            }
            // v1 has no pending_joins table yet.
            XCTAssertThrowsError(try v1.read { tx in try tx.pendingJoins.active() })
        }
        let migrated = try Store.open(path: path)
        XCTAssertEqual(try migrated.schemaVersion(), 2)
        try migrated.read { tx in
            XCTAssertEqual(try tx.processedRequests.get(rumorID: "r1")?.outcome, "accepted")
            XCTAssertTrue(try tx.consumedTags.isConsumed("k1"))
            XCTAssertEqual(try tx.pendingJoins.active().count, 0)
            XCTAssertNil(try tx.processedRequests.get(rumorID: "r1")?.wrapID)
        }
        // Reopening applies nothing twice.
        let again = try Store.open(path: path)
        XCTAssertEqual(try again.raw { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM schema_migrations") }, 2)
    }

    func testWALAndPragmasOnDisk() throws {
        let dir = TemporaryDirectory()
        let store = try Store.open(path: dir.file("db.sqlite"))
        let (journal, sync, secure, fk) = try store.raw { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"),
             try Int.fetchOne(db, sql: "PRAGMA secure_delete"), try Int.fetchOne(db, sql: "PRAGMA foreign_keys"))
        }
        XCTAssertEqual(journal, "wal")
        XCTAssertEqual(sync, 2, "synchronous = FULL")
        XCTAssertEqual(secure, 1)
        XCTAssertEqual(fk, 1)
    }

    func testAFailedStepRollsBackTheWholeTransaction() throws {
        let store = try Store.inMemory()
        struct Boom: Error {}
        XCTAssertThrowsError(try store.write { tx in
            _ = try tx.consumedTags.consume("k", now: 1)
            throw Boom()
        }) { XCTAssertTrue($0 is Boom) }
        XCTAssertFalse(try store.read { tx in try tx.consumedTags.isConsumed("k") })
    }
}
