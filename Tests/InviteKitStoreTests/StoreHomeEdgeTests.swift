import XCTest
import InviteKitCrypto
@testable import InviteKitStore
import InviteKitTestSupport

/// Issue 20's home rows: links, shared directories, recovery, read-only homes and full disks.
final class StoreHomeEdgeTests: XCTestCase {
    private func code(_ body: () throws -> Void) -> StoreError? {
        do { try body(); return nil } catch { return error as? StoreError }
    }

    private func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    // Row 2: a lock that is a symbolic link is refused; the file it points to is untouched.
    func testSymlinkedLockIsRefusedAndItsTargetKeepsItsBytes() throws {
        let dir = TemporaryDirectory()
        let home = StoreHome(directory: dir.file("home"))
        try home.create()
        let victim = dir.file("victim")
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        XCTAssertEqual(symlink(victim, home.lockPath), 0)
        let error = code { _ = try HomeLock(path: home.lockPath) }
        XCTAssertEqual(error?.code, .homeUnavailable)
        XCTAssertTrue(error?.detail.contains("symbolic link") ?? false, "\(String(describing: error))")
        XCTAssertEqual(read(victim), "precious\n")
        XCTAssertEqual(code { _ = try home.openExclusive() }?.code, .homeUnavailable)
        XCTAssertEqual(read(victim), "precious\n")
    }

    func testSymlinkedDatabaseAndKeyAreRefused() throws {
        let dir = TemporaryDirectory()
        let home = StoreHome(directory: dir.file("home"))
        try home.create()
        let victim = dir.file("victim")
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        XCTAssertEqual(symlink(victim, home.databasePath), 0)
        XCTAssertEqual(code { _ = try Store.open(path: home.databasePath) }?.code, .homeUnavailable)
        XCTAssertEqual(symlink(victim, home.identityKeyPath), 0)
        XCTAssertEqual(code { _ = try IdentityKeyFile.read(from: home.identityKeyPath) }?.code, .identityUnavailable)
        XCTAssertEqual(read(victim), "precious\n")
    }

    // Row 5: a shared (1777) or group-writable directory is refused, with the fix, and keeps its mode.
    func testSharedOrGroupWritableHomeIsRefusedAndNotChmodded() throws {
        let dir = TemporaryDirectory()
        for mode: mode_t in [0o1777, 0o775, 0o707] {
            let path = dir.file("shared-\(String(mode, radix: 8))")
            XCTAssertEqual(mkdir(path, 0o700), 0)
            XCTAssertEqual(chmod(path, mode), 0)
            let error = code { try StoreHome(directory: path).create() }
            XCTAssertEqual(error?.code, .homeUnavailable)
            XCTAssertTrue(error?.detail.contains("writable by group or others") ?? false, "\(String(describing: error))")
            XCTAssertTrue(error?.detail.contains("chmod 700") ?? false)
            XCTAssertEqual(StoreFiles.mode(path), Int(mode), "the mode was changed")
        }
        // A link the user named as the home itself is fine; its target's mode is what counts.
        let real = dir.file("real")
        XCTAssertEqual(mkdir(real, 0o700), 0)
        XCTAssertEqual(symlink(real, dir.file("link")), 0)
        XCTAssertNoThrow(try StoreHome(directory: dir.file("link")).create())
        XCTAssertEqual(StoreFiles.mode(real), 0o700)
    }

    func testHomeOwnedByAnotherUserIsRefused() throws {
        guard geteuid() == 0 else { throw XCTSkip("chown to another user needs root") }
        let dir = TemporaryDirectory()
        let path = dir.file("theirs")
        XCTAssertEqual(mkdir(path, 0o700), 0)
        XCTAssertEqual(chown(path, 65534, 65534), 0)
        let error = code { try StoreHome(directory: path).create() }
        XCTAssertEqual(error?.code, .homeUnavailable)
        XCTAssertTrue(error?.detail.contains("not by you") ?? false, "\(String(describing: error))")
    }

    private func initialized(_ dir: TemporaryDirectory) throws -> StoreHome {
        let home = StoreHome(directory: dir.file("home"))
        let (store, lock) = try home.openExclusive()
        try IdentityKeyFile.write(SecureBytes(copying: [UInt8](repeating: 7, count: 32)), to: home.identityKeyPath)
        try store.write { tx in try tx.identity.create(publicKey: [UInt8](repeating: 9, count: 32), now: 1) }
        withExtendedLifetime(lock) {}
        return home
    }

    // Row 7: a home with only one of its two files names the missing one and the way out.
    func testMissingDatabaseOrKeyNamesTheFileAndTheWayOut() throws {
        let dir = TemporaryDirectory()
        let home = try initialized(dir)
        XCTAssertEqual(try home.contents(), .complete)
        XCTAssertNoThrow(try home.requireIntact())

        for suffix in ["", "-wal", "-shm"] { unlink(home.databasePath + suffix) }
        XCTAssertEqual(try home.contents(), .missingDatabase)
        var error = code { try home.requireIntact() }
        XCTAssertEqual(error?.code, .identityUnavailable)
        XCTAssertTrue(error?.detail.contains(home.databasePath) ?? false)
        XCTAssertTrue(error?.detail.contains("--force-new-identity") ?? false)
        XCTAssertTrue(error?.detail.contains("backup") ?? false)
        XCTAssertEqual(code { _ = try home.openExclusive() }?.detail, error?.detail, "a node must not start over on an empty database")
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.databasePath), "refusing must not create the database")
        XCTAssertEqual(code { try home.requireInitializable() }?.detail, error?.detail)

        let other = TemporaryDirectory()
        let home2 = try initialized(other)
        unlink(home2.identityKeyPath)
        XCTAssertEqual(try home2.contents(), .missingKey)
        error = code { try home2.requireIntact() }
        XCTAssertTrue(error?.detail.contains(home2.identityKeyPath) ?? false)
        XCTAssertTrue(error?.detail.contains("--force-new-identity") ?? false)
        XCTAssertEqual(code { try home2.requireInitializable() }?.code, .identityUnavailable)

        // The way out: both set aside (nothing deleted), then the home is empty.
        let moved = try home2.setAside(now: 42)
        XCTAssertTrue(moved.contains(home2.databasePath + ".replaced-42"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: home2.databasePath + ".replaced-42"))
        XCTAssertEqual(try home2.contents(), .empty)
        XCTAssertNoThrow(try home2.requireInitializable())
    }

    // Row 8: a read-only home (here a tmpfs remounted read-only) serves reads.
    func testReadOnlyHomeOpensReadOnly() throws {
        let mount = try TmpfsMount(sizeKiB: 4096)
        let home = StoreHome(directory: mount.file("home"))
        do {
            let (store, lock) = try home.openExclusive()
            try store.write { tx in try tx.identity.setRelays(["wss://a.example", "wss://b.example"]) }
            withExtendedLifetime(lock) {}
        }
        try mount.remountReadOnly()
        let store = try Store.open(path: home.databasePath)
        XCTAssertEqual(try store.read { tx in try tx.identity.relays() }, ["wss://a.example", "wss://b.example"])
        XCTAssertEqual(code { try store.write { tx in try tx.identity.setRelays([]) } }?.code, .io)
        let lockError = code { _ = try HomeLock(path: home.lockPath) }
        XCTAssertTrue(lockError?.detail.contains("read-only") ?? false, "\(String(describing: lockError))")
        XCTAssertEqual(try Store.inspect(path: home.databasePath).integrity, ["ok"])
    }

    // Row 9: a full disk is `store_full` with a plain message; what committed before stays, and
    // the failed transaction leaves nothing behind.
    func testFullDiskIsStoreFullAndLosesNothing() throws {
        let mount = try TmpfsMount(sizeKiB: 1024)
        let path = mount.file("full.sqlite")
        var committed: [String] = []
        var failure: StoreError?
        do {
            let store = try Store.open(path: path)
            for round in 0..<200 {
                let urls = (0..<64).map { "wss://r\(round)-\($0).example/" + String(repeating: "x", count: 400) }
                do {
                    try store.write { tx in try tx.identity.setRelays(urls) }
                    committed = urls
                } catch let e as StoreError {
                    failure = e
                    break
                }
            }
        }
        guard let failure else { return XCTFail("1 MiB never filled up") }
        XCTAssertEqual(failure.code, .full, "\(failure)")
        XCTAssertTrue(failure.detail.contains("disk holding the home is full"), failure.detail)
        XCTAssertFalse(committed.isEmpty)
        let reopened = try Store.open(path: path)
        XCTAssertEqual(try reopened.read { tx in try tx.identity.relays() }, committed, "a committed write was lost or a failed one half-applied")
        XCTAssertEqual(try Store.inspect(path: path).integrity, ["ok"])
    }
}
