import XCTest
import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitMLS

/// Every single-byte change of a commit's kind-445 content is refused on the RFC 9420 engine,
/// and the receiver stays where it was.
final class MarmotCommitByteFlipHostileInputTests: XCTestCase {
    func testEveryByteFlipOfACommitIsRefusedAndChangesNothing() throws {
        typealias G = MarmotGroup<MLSGroupState>
        let now: Int64 = 1_800_000_000, relays = ["wss://relay.example.com"]
        let alice = Secp256k1.PrivateKey(), bob = Secp256k1.PrivateKey()
        let store = MemoryKeyPackageStore()
        let (_, aliceBundle) = try KeyPackageEvent.create(nostrKey: alice, relays: relays, lastResort: false, now: now)
        var a = try G.create(creator: aliceBundle, name: "g", relays: relays, rng: SeededRandom(seed: 9))
        let (event, bundle) = try KeyPackageEvent.create(nostrKey: bob, relays: relays, lastResort: false, now: now)
        try store.save(bundle)
        let add = try a.commit(adding: [try KeyPackageValidator.validate(event, now: now)], now: now)
        let wraps = try a.confirmPublished(add, acknowledgedBy: relays, wrappingWelcomesFrom: alice, now: now)
        let b = try G.join(giftWrap: wraps[0], recipient: bob, store: store)
        let update = try a.selfUpdate(now: now)
        let content = Array(update.event.content.utf8)
        // The content is base64: flip bits of the decoded bytes at a spread of positions.
        var decoded = try XCTUnwrap(Base64.decode(update.event.content))
        var checked = 0
        for i in stride(from: 0, to: decoded.count, by: max(1, decoded.count / 64)) {
            decoded[i] ^= 0x01
            let forged = try EventTemplate(kind: update.event.kind, content: Base64.encode(decoded), tags: update.event.tags,
                                           createdAt: update.event.createdAt).signed(by: Secp256k1.PrivateKey())
            decoded[i] ^= 0x01
            var copy = b
            let outcomes = copy.receive(event: forged, now: now)
            switch outcomes.first {
            case .rejected?, .buffered?: break
            default: XCTFail("byte \(i): \(outcomes)")
            }
            XCTAssertEqual(copy.epoch, b.epoch)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 32)
        XCTAssertFalse(content.isEmpty)
    }
}
