import XCTest
import GRDB
import InviteKitCrypto
@testable import InviteKitStore
import InviteKitTestSupport

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
        XCTAssertEqual(try migrated.schemaVersion(), Schema.currentVersion)
        try migrated.read { tx in
            XCTAssertEqual(try tx.processedRequests.get(rumorID: "r1")?.outcome, "accepted")
            XCTAssertTrue(try tx.consumedTags.isConsumed("k1"))
            XCTAssertEqual(try tx.pendingJoins.active().count, 0)
            XCTAssertNil(try tx.processedRequests.get(rumorID: "r1")?.wrapID)
        }
        // Reopening applies nothing twice.
        let again = try Store.open(path: path)
        XCTAssertEqual(try again.raw { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM schema_migrations") }, Schema.migrations.count)
    }

    func testVersionTwoDatabaseGainsPendingApprovalsAndKeepsItsRows() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("v2.sqlite")
        let now: Int64 = 5
        do {
            let v2 = try Store.open(path: path, migrateTo: 2)
            XCTAssertEqual(try v2.schemaVersion(), 2)
            try v2.write { tx in
                try tx.pendingJoins.insert(PendingJoinRecord(id: "j1", inviteURL: "u", inviteTag: nil, inviter: Array(repeating: 1, count: 32),
                                                             relays: ["wss://r"], keyPackageRef: nil, keyPackageEventID: nil,
                                                             requestEventID: nil, createdAt: now, updatedAt: now))
            }
            // v2 has no pending_approvals table yet.
            XCTAssertThrowsError(try v2.read { tx in try tx.pendingApprovals.all() })
        }
        let migrated = try Store.open(path: path, migrateTo: 3)
        XCTAssertEqual(try migrated.schemaVersion(), 3)
        try migrated.write { tx in
            XCTAssertEqual(try tx.pendingJoins.get(id: "j1")?.inviteURL, "u")
            XCTAssertEqual(try tx.pendingApprovals.all().count, 0)
            try tx.groups.save(StoredGroup(id: "g", nostrGroupID: "n", name: nil, engine: "e", engineVersion: 1, state: SecureBytes(zeroedCount: 0),
                                           epoch: 0, currentTag: nil, relays: [], updatedAt: now))
            let joiner = [UInt8](repeating: 2, count: 32)
            XCTAssertTrue(try tx.pendingApprovals.insert(PendingApprovalRecord(requestID: "r1", wrapID: "w1", groupID: "g", joiner: joiner,
                                                                               keyPackageEventJSON: "{}", createdAt: now)))
            XCTAssertFalse(try tx.pendingApprovals.insert(PendingApprovalRecord(requestID: "r1", wrapID: "w1", groupID: "g", joiner: joiner,
                                                                                keyPackageEventJSON: "{}", createdAt: now)), "one row per request")
            XCTAssertEqual(try tx.pendingApprovals.waiting(groupID: "g", joiner: joiner).map(\.requestID), ["r1"])
            XCTAssertEqual(try tx.pendingApprovals.resolve(groupID: "g", joiner: joiner, as: .approved, commitEventID: "c", now: now), 1)
            XCTAssertThrowsError(try tx.pendingApprovals.resolve(groupID: "g", joiner: joiner, as: .approved, now: now), "approved once")
            try tx.pendingApprovals.reopen(commitEventID: "c")
            XCTAssertEqual(try tx.pendingApprovals.get(requestID: "r1")?.status, .waiting)
        }
        let again = try Store.open(path: path, migrateTo: 3)
        XCTAssertEqual(try again.raw { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM schema_migrations") }, 3)
    }

    /// Schema 4 (PROTOCOL §3.7; docs/storage.md §6): consumed keys recorded per tag keep counting for their
    /// tag under an explicit `:tag:` key, invites get their own ids, messages a local sequence.
    func testVersionThreeDatabaseMovesToPerInviteSingleUseKeepingItsRows() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("v3.sqlite")
        let creator = String(repeating: "ab", count: 32)
        do {
            let v3 = try Store.open(path: path, migrateTo: 3)
            try v3.raw { db in
                try db.execute(sql: "INSERT INTO consumed_tags(key, request_id, consumed_at) VALUES (?, 'r', 1)", arguments: [creator + ":OldTag0000"])
                try db.execute(sql: """
                    INSERT INTO groups(id, nostr_group_id, name, engine, engine_version, state, epoch, current_tag, relays, updated_at)
                    VALUES ('g', 'n', NULL, 'e', 1, x'', 0, 'OldTag0000', '', 1)
                    """)
                try db.execute(sql: """
                    INSERT INTO invites(tag, group_id, format, url, single_use, expires_at, created_at, revoked_at)
                    VALUES ('OldTag0000', 'g', 'signed', 'u', 1, NULL, 1, NULL)
                    """)
                try db.execute(sql: """
                    INSERT INTO messages(event_id, group_id, sender, created_at, kind, content, outgoing, status)
                    VALUES ('b', 'g', x'01', 5, 9, 'b', 0, 'received'), ('a', 'g', x'01', 5, 9, 'a', 0, 'received')
                    """)
            }
        }
        let v4 = try Store.open(path: path)
        XCTAssertEqual(try v4.schemaVersion(), Schema.currentVersion)
        let legacy = try v4.read { tx in try tx.consumedTags.isConsumed(creator + ":tag:OldTag0000") }
        let unconverted = try v4.read { tx in try tx.consumedTags.isConsumed(creator + ":OldTag0000") }
        let inviteIDs = try v4.read { tx in try tx.invites.forGroup("g").map(\.id) }
        let order = try v4.read { tx in try tx.messages.history(groupID: "g").map(\.eventID) }
        XCTAssertTrue(legacy)
        XCTAssertFalse(unconverted)
        XCTAssertEqual(inviteIDs, ["OldTag0000"])
        // Existing rows keep the order they were stored in.
        XCTAssertEqual(order, ["b", "a"])
        let second = StoredInvite(id: "second", tag: "OldTag0000", groupID: "g", format: .signed, url: "u2", singleUse: true,
                                  expiresAt: nil, createdAt: 2)
        try v4.write { tx in try tx.invites.insert(second) }
        let consumed = try v4.write { tx in try tx.consumedTags.consume(creator + ":invite:" + String(repeating: "00", count: 32), now: 3) }
        XCTAssertTrue(consumed)
        XCTAssertEqual(try v4.read { tx in try tx.invites.forGroup("g").count }, 2, "many invites per tag")
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
