import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitRelay
import XCTest

final class GiftWrapUnwrapTests: XCTestCase {
    func testParallelUnwrapMatchesOneBatch() async throws {
        let sender = Secp256k1.PrivateKey(), me = Secp256k1.PrivateKey()
        var wraps = [NostrEvent]()
        for i in 0..<300 {
            if i % 50 == 7 {
                wraps.append(try EventTemplate(kind: 1059, content: "junk \(i)", tags: [["p", me.publicKey.hex]]).signed(by: sender))
            } else {
                wraps.append(try GiftWrap.wrap(template: EventTemplate(kind: 14, content: "m\(i)"), from: sender, to: me.publicKey))
            }
        }
        let sequential = GiftWrap.unwrapBatch(wraps, recipient: me)
        let parallel = await GiftWrapCatchUp.unwrap(wraps, recipient: me, parallelism: 4)
        XCTAssertEqual(sequential.successCount, 294)
        XCTAssertEqual(parallel.successCount, sequential.successCount)
        XCTAssertEqual(parallel.failureCount, 6)
        XCTAssertEqual(parallel.succeeded.map(\.rumor.id), sequential.succeeded.map(\.rumor.id), "input order kept")
        XCTAssertEqual(parallel.failed.map(\.input), sequential.failed.map(\.input))
        let empty = await GiftWrapCatchUp.unwrap([], recipient: me)
        XCTAssertEqual(empty.total, 0)
    }
}
