import XCTest
import InviteKitCrypto
@testable import InviteKitNostr

/// A gift wrap InviteKit builds is one its own unwrap reads: for rumors on both sides of the
/// reader's cap (``NostrEvent/defaultMaxJSONBytes``), `wrap` either refuses naming the cap or
/// produces an event that parses and unwraps to the same rumor.
final class GiftWrapSizePropertyTests: XCTestCase {
    func testWrapRefusesWhatUnwrapRefuses() throws {
        let rng = SeededRandom(seed: 59)
        let alice = Secp256k1.PrivateKey(using: rng), bob = Secp256k1.PrivateKey(using: rng)
        var refused = 0, accepted = 0
        for _ in 0..<8 {
            let size = 1_200_000 + Int(rng.uniform(1_000_000))
            let template = EventTemplate(kind: 14, content: String(repeating: "a", count: size), tags: [])
            do {
                let wrap = try GiftWrap.wrap(template: template, from: alice, to: bob.publicKey, using: rng)
                accepted += 1
                let parsed = try NostrEvent(json: wrap.jsonBytes)
                XCTAssertEqual(try GiftWrap.unwrap(parsed, recipient: bob).rumor.content.utf8.count, size)
            } catch let e as NostrError {
                refused += 1
                XCTAssertEqual(e.code, .tooLarge)
                XCTAssertTrue(e.detail.contains("\(NostrEvent.defaultMaxJSONBytes)"), e.detail)
            }
        }
        XCTAssertGreaterThan(refused, 0)
        XCTAssertGreaterThan(accepted, 0)
    }
}
