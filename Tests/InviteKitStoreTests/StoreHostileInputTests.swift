import XCTest
import GRDB
import InviteKitCrypto
@testable import InviteKitStore
import InviteKitTestSupport

/// Damaged or foreign files on disk: always a typed ``StoreError``, never a crash.
final class StoreHostileInputTests: XCTestCase {
    private func expectCode(_ codes: Set<StoreError.Code>, _ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard let e = error as? StoreError else { return XCTFail("untyped error \(error)", file: file, line: line) }
            XCTAssertTrue(codes.contains(e.code), "got \(e.code)", file: file, line: line)
        }
    }

    func testRandomBytesAreNotADatabase() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("junk.sqlite")
        let rng = SeededRandom(seed: 7)
        _ = FileManager.default.createFile(atPath: path, contents: Data(rng.bytes(8192)))
        expectCode([.corrupt]) { _ = try Store.open(path: path) }
    }

    func testTextFileIsNotADatabase() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("text.sqlite")
        _ = FileManager.default.createFile(atPath: path, contents: Data(String(repeating: "not a database\n", count: 400).utf8))
        expectCode([.corrupt]) { _ = try Store.open(path: path) }
    }

    func testDamagedPagesAreReportedAsCorrupt() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("damaged.sqlite")
        do {
            let store = try Store.open(path: path)
            try store.write { tx in
                for i in 0..<300 {
                    _ = try tx.messages.insert(StoredMessage(eventID: "e\(i)", groupID: "g", sender: [1], createdAt: Int64(i), kind: 9,
                                                             content: String(repeating: "x", count: 200), outgoing: false, status: .received))
                }
            }
            try store.raw { db in try db.checkpoint(.truncate) }
        }
        // Keep the header (so it still looks like SQLite) and overwrite everything after the first pages.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertGreaterThan(bytes.count, 4096 * 4)
        for i in (4096 * 2)..<bytes.count { bytes[i] = UInt8(truncatingIfNeeded: i &* 31) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")
        expectCode([.corrupt, .migrationFailed]) {
            let store = try Store.open(path: path)
            _ = try store.read { tx in try tx.messages.history(groupID: "g", limit: 1000) }
        }
    }

    func testTruncatedDatabaseIsATypedError() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("short.sqlite")
        do {
            let store = try Store.open(path: path)
            try store.raw { db in try db.checkpoint(.truncate) }
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(100).write(to: URL(fileURLWithPath: path))
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")
        expectCode([.corrupt, .openFailed, .io]) {
            let store = try Store.open(path: path)
            _ = try store.read { tx in try tx.groups.all() }
        }
    }

    func testSchemaFromTheFutureIsRefused() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("future.sqlite")
        do {
            let store = try Store.open(path: path)
            try store.raw { db in try db.execute(sql: "PRAGMA user_version = 999") }
        }
        expectCode([.schemaTooNew]) { _ = try Store.open(path: path) }
    }

    func testIdentityKeyFileOfTheWrongSizeOrReadableByOthersIsRefused() throws {
        let dir = TemporaryDirectory()
        let short = dir.file("short.key")
        _ = FileManager.default.createFile(atPath: short, contents: Data([1, 2, 3]), attributes: [.posixPermissions: 0o600])
        expectCode([.identityUnavailable]) { _ = try IdentityKeyFile.read(from: short) }
        let open = dir.file("open.key")
        _ = FileManager.default.createFile(atPath: open, contents: Data(repeating: 1, count: 32), attributes: [.posixPermissions: 0o644])
        expectCode([.identityUnavailable]) { _ = try IdentityKeyFile.read(from: open) }
        expectCode([.identityUnavailable]) { _ = try IdentityKeyFile.read(from: dir.file("missing.key")) }
    }

    func testHomeThatIsAFileIsRefused() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("home")
        _ = FileManager.default.createFile(atPath: path, contents: Data([1]))
        expectCode([.homeUnavailable]) { _ = try StoreHome(directory: path).openExclusive() }
    }
}
