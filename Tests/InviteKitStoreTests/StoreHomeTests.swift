import XCTest
import InviteKitCrypto
@testable import InviteKitStore
import InviteKitTestSupport

final class StoreHomeTests: XCTestCase {
    func testResolveOrder() {
        XCTAssertEqual(StoreHome.resolve("/x", environment: ["INVITEKIT_HOME": "/y", "HOME": "/h"]).directory, "/x")
        XCTAssertEqual(StoreHome.resolve(nil, environment: ["INVITEKIT_HOME": "/y", "HOME": "/h"]).directory, "/y")
        XCTAssertEqual(StoreHome.resolve(nil, environment: ["HOME": "/h"]).directory, "/h/.invitekit")
    }

    func testHomeIsPrivateAndDatabaseFilesAre0600() throws {
        let dir = TemporaryDirectory()
        let home = StoreHome(directory: dir.file("home"))
        let (store, lock) = try home.openExclusive()
        try store.write { tx in try tx.identity.setRelays(["ws://r"]) }
        XCTAssertEqual(StoreFiles.mode(home.directory), 0o700)
        XCTAssertEqual(StoreFiles.mode(home.databasePath), 0o600)
        XCTAssertEqual(StoreFiles.mode(home.databasePath + "-wal"), 0o600)
        XCTAssertEqual(StoreFiles.mode(home.lockPath), 0o600)
        _ = lock
    }

    func testSecondNodeOnTheSameHomeIsRefusedUntilTheFirstReleases() throws {
        let dir = TemporaryDirectory()
        let home = StoreHome(directory: dir.file("home"))
        var first: (store: Store, lock: HomeLock)? = try home.openExclusive()
        XCTAssertThrowsError(try home.openExclusive()) { XCTAssertEqual(($0 as? StoreError)?.code, .locked) }
        XCTAssertNotNil(first)
        first = nil
        XCTAssertNoThrow(try home.openExclusive())
    }

    func testIdentityKeyFileRoundTripsAndIsPrivate() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("identity.key")
        let secret = SecureBytes(copying: (0..<32).map { UInt8($0) })
        try IdentityKeyFile.write(secret, to: path)
        XCTAssertEqual(StoreFiles.mode(path), 0o600)
        XCTAssertTrue(try IdentityKeyFile.read(from: path).constantTimeEquals(secret))
        XCTAssertThrowsError(try IdentityKeyFile.write(secret, to: path)) { XCTAssertEqual(($0 as? StoreError)?.code, .identityExists) }
    }

    func testIdentityRowIsCreatedOnce() throws {
        let store = try Store.inMemory()
        let key = [UInt8](repeating: 3, count: 32)
        try store.write { tx in try tx.identity.create(publicKey: key, now: 1) }
        XCTAssertThrowsError(try store.write { tx in try tx.identity.create(publicKey: key, now: 2) }) {
            XCTAssertEqual(($0 as? StoreError)?.code, .identityExists)
        }
        XCTAssertEqual(try store.read { tx in try tx.identity.publicKey() }, key)
    }
}
