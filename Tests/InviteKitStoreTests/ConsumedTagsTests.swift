import XCTest
import Foundation
@testable import InviteKitStore
import InviteKitTestSupport

final class ConsumedTagsTests: XCTestCase {
    func testConsumeReturnsTrueOnce() throws {
        let store = try Store.inMemory()
        XCTAssertTrue(try store.write { tx in try tx.consumedTags.consume("k", now: 1) })
        XCTAssertFalse(try store.write { tx in try tx.consumedTags.consume("k", now: 2) })
        XCTAssertTrue(try store.read { tx in try tx.consumedTags.isConsumed("k") })
    }

    /// Two connections (as two processes would have) race on the same keys from many threads:
    /// each key is consumed exactly once.
    func testSingleUseIsConsumedOnceUnderConcurrentWriters() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("race.sqlite")
        let stores = [try Store.open(path: path), try Store.open(path: path)]
        let keys = 40
        let wins = Counter()
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: keys * 4) { i in
            let store = stores[i % 2]
            do {
                if try store.write({ tx in try tx.consumedTags.consume("key-\(i % keys)", now: Int64(i)) }) { wins.add() }
            } catch {
                failures.add()
            }
        }
        XCTAssertEqual(failures.value, 0)
        XCTAssertEqual(wins.value, keys)
    }
}
