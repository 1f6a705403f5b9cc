import XCTest
import InviteKitCrypto
@testable import InviteKitStore
import InviteKitTestSupport

/// Kills a real process (SIGKILL, as `kill -9`) at each step inside a transaction, reopens the
/// database and checks that the step happened entirely or not at all, and that redoing it does
/// nothing twice.
final class CrashSafetyTests: XCTestCase {
    private func killed(_ step: String, at failPoint: String, db: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try CrashChild.run(step, db: db, failPoint: failPoint)
        XCTAssertTrue(r.killed, "\(failPoint): expected SIGKILL, got status \(r.status) \(r.output)", file: file, line: line)
    }

    private func completes(_ step: String, db: String, expect output: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try CrashChild.run(step, db: db)
        XCTAssertFalse(r.killed, file: file, line: line)
        XCTAssertEqual(r.output, output, file: file, line: line)
    }

    /// The group the child's steps work on (pending commits reference it).
    private func seededStore(_ db: String) throws -> Store {
        let store = try Store.open(path: db)
        try store.write { tx in
            try tx.groups.save(StoredGroup(id: "g1", nostrGroupID: "n1", name: nil, engine: "test", engineVersion: 1,
                                           state: SecureBytes(copying: [1]), epoch: 1, currentTag: "tag-1", relays: ["ws://a"], updatedAt: 0))
        }
        return store
    }

    func testJoinDecisionKilledMidTransactionLeavesNothingAndIsDecidedOnceAfterRestart() throws {
        for point in ["decide.after_record", "decide.after_consume", "decide.before_commit"] {
            let dir = TemporaryDirectory()
            let db = dir.file("node.sqlite")
            let store = try seededStore(db)
            try killed("decide", at: point, db: db)
            try store.read { tx in
                XCTAssertEqual(try tx.processedRequests.count(), 0, point)
                XCTAssertFalse(try tx.consumedTags.isConsumed("creator:tag-1"), point)
                XCTAssertTrue(try tx.pendingCommits.waiting().isEmpty, point)
                XCTAssertNil(try tx.outbound.entry(eventID: "commit-1"), point)
            }
            try completes("decide", db: db, expect: "accepted")
            try completes("decide", db: db, expect: "duplicate")
            try store.read { tx in
                XCTAssertEqual(try tx.processedRequests.count(), 1)
                XCTAssertEqual(try tx.pendingCommits.waiting().count, 1)
                XCTAssertEqual(try tx.outbound.entry(eventID: "commit-1")?.deliveries.count, 2)
            }
        }
    }

    func testJoinDecisionKilledRightAfterCommitIsDurableAndNotRedone() throws {
        let dir = TemporaryDirectory()
        let db = dir.file("node.sqlite")
        let store = try seededStore(db)
        try killed("decide", at: "decide.after_tx", db: db)
        XCTAssertTrue(try store.read { tx in try tx.consumedTags.isConsumed("creator:tag-1") })
        try completes("decide", db: db, expect: "duplicate")
    }

    func testNoWelcomeWithoutAnAcknowledgedCommit() throws {
        for point in ["confirm.after_ack", "confirm.after_apply", "confirm.before_commit"] {
            let dir = TemporaryDirectory()
            let db = dir.file("node.sqlite")
            let store = try seededStore(db)
            try completes("decide", db: db, expect: "accepted")
            try killed("confirm", at: point, db: db)
            try store.read { tx in
                XCTAssertEqual(try tx.pendingCommits.waiting().map(\.commitEventID), ["commit-1"], point)
                XCTAssertEqual(try tx.groups.get(id: "g1")?.epoch, 1, point)
                XCTAssertFalse(try tx.outbound.isAcked(eventID: "commit-1"), point)
                XCTAssertNil(try tx.outbound.entry(eventID: "welcome-1"), point)
            }
            try completes("confirm", db: db, expect: "confirmed")
            try store.read { tx in
                XCTAssertEqual(try tx.groups.get(id: "g1")?.epoch, 2)
                XCTAssertEqual(try tx.outbound.due(now: 1_700_000_000).map(\.eventID), ["commit-1", "welcome-1"])
            }
            let again = try CrashChild.run("confirm", db: db)
            XCTAssertEqual(again.output, "error store_invalid_transition", "a second OK never applies the commit twice")
        }
    }

    func testMessageKilledMidTransactionIsStoredOnceAfterRestart() throws {
        for point in ["message.after_insert", "message.before_commit"] {
            let dir = TemporaryDirectory()
            let db = dir.file("node.sqlite")
            try killed("message", at: point, db: db)
            let store = try Store.open(path: db)
            XCTAssertEqual(try store.read { tx in try tx.messages.count() }, 0, point)
            XCTAssertNil(try store.read { tx in try tx.outbound.entry(eventID: "msg-1") }, point)
            try completes("message", db: db, expect: "stored")
            try completes("message", db: db, expect: "duplicate")
            XCTAssertEqual(try store.read { tx in try tx.messages.count() }, 1)
        }
    }

    func testKeyPackageIsNeverQueuedWithoutItsPrivatePart() throws {
        for point in ["keypackage.after_save", "keypackage.before_commit"] {
            let dir = TemporaryDirectory()
            let db = dir.file("node.sqlite")
            try killed("keypackage", at: point, db: db)
            let store = try Store.open(path: db)
            XCTAssertTrue(try store.read { tx in try tx.keyPackages.references() }.isEmpty, point)
            XCTAssertNil(try store.read { tx in try tx.outbound.entry(eventID: "kp-1") }, point)
            try completes("keypackage", db: db, expect: "published")
            XCTAssertEqual(try store.read { tx in try tx.keyPackages.bundle(reference: [9, 9]) }?.exportBytes(), [4, 5, 6])
        }
    }

    func testWelcomeKilledMidTransactionKeepsTheKeyPackageAndJoinsOnce() throws {
        for point in ["welcome.after_mark", "welcome.before_commit"] {
            let dir = TemporaryDirectory()
            let db = dir.file("node.sqlite")
            let store = try Store.open(path: db)
            try store.write { tx in
                try tx.keyPackages.save(reference: [9, 9], eventID: "kp-1", bundle: SecureBytes(copying: [4]), lastResort: false, now: 0)
                try tx.pendingJoins.insert(PendingJoinRecord(id: "join-1", inviteURL: "u", inviteTag: "t", inviter: [1], relays: [],
                                                             keyPackageRef: [9, 9], keyPackageEventID: "kp-1", requestEventID: "w",
                                                             createdAt: 0, updatedAt: 0))
            }
            try killed("welcome", at: point, db: db)
            try store.read { tx in
                XCTAssertEqual(try tx.pendingJoins.active().map(\.id), ["join-1"], point)
                XCTAssertNotNil(try tx.keyPackages.bundle(reference: [9, 9]), "no lost KeyPackage")
                XCTAssertNil(try tx.groups.get(id: "g2"))
            }
            try completes("welcome", db: db, expect: "joined")
            try completes("welcome", db: db, expect: "error store_invalid_transition")
            XCTAssertNil(try store.read { tx in try tx.keyPackages.bundle(reference: [9, 9]) })
        }
    }

    func testMigrationKilledMidwayLeavesThePreviousVersion() throws {
        let dir = TemporaryDirectory()
        let db = dir.file("node.sqlite")
        do { _ = try Store.open(path: db, migrateTo: 1) }
        try killed("open", at: "migration.v2", db: db)
        XCTAssertEqual(try Store.open(path: db, migrateTo: 1).schemaVersion(), 1)
        XCTAssertEqual(try Store.open(path: db).schemaVersion(), Schema.currentVersion)
    }
}
