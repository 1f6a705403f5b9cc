import XCTest
import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitMLS

/// The fill rule of PROTOCOL §5.11 (``LargeGroupFill``): in a tree just built by adds, the highest
/// member of a block whose root is blank makes a self-update, after which path commits of the
/// block's members encrypt to far fewer nodes.
final class LargeGroupFillTests: XCTestCase {
    typealias G = MarmotGroup<MLSGroupState>
    let now: Int64 = 1_800_000_000
    let relays = ["wss://relay.example.com"]

    func testTheHighestMemberOfABlankBlockFillsItAndPathsShrink() throws {
        let rng = SeededRandom(seed: 31)
        let admin = Secp256k1.PrivateKey(using: rng)
        let (_, bundle) = try KeyPackageEvent.create(nostrKey: admin, relays: relays, lastResort: false, now: now)
        var g = try G.create(creator: bundle, name: "fill", relays: relays, outOfBandTree: true, rng: rng)
        // 200 members: one block, which never needs a fill.
        var people: [(key: Secp256k1.PrivateKey, kp: ValidatedKeyPackage)] = []
        let store = MemoryKeyPackageStore()
        for _ in 0..<299 {
            let key = Secp256k1.PrivateKey(using: rng)
            let (event, b) = try KeyPackageEvent.create(nostrKey: key, relays: relays, lastResort: false, now: now)
            try store.save(b)
            people.append((key, try KeyPackageValidator.validate(event, now: now)))
        }
        // The fill rule is about trees, not sizes: a roomy budget keeps each add in one Commit.
        let budget = try EventBudget(maxEventBytes: 1 << 20)
        var p = try g.commit(adding: Array(people.prefix(199).map(\.kp)), budget: budget, now: now, rng: rng)
        _ = try g.confirmPublished(p, acknowledgedBy: relays, wrappingWelcomesFrom: admin, budget: budget, now: now, rng: rng)
        XCTAssertEqual(g.state.tree.leafCount, 256)
        XCTAssertFalse(g.state.tree.occupiedLeaves.contains { LargeGroupFill.shouldFill(tree: g.state.tree, leaf: $0) },
                       "a one-block group never needs a fill")

        // 100 more: leaves 200..<300, block 1 (256..<512) is new and blank.
        p = try g.commit(adding: Array(people.suffix(100).map(\.kp)), budget: budget, now: now, rng: rng)
        let release = try g.confirmPublished(p, acknowledgedBy: relays, wrappingWelcomesFrom: admin, budget: budget, now: now, rng: rng)
        let tree = g.state.tree
        XCTAssertEqual(tree.leafCount, 512)
        let fillers = tree.occupiedLeaves.filter { LargeGroupFill.shouldFill(tree: tree, leaf: $0) }
        XCTAssertEqual(fillers, [299], "only the highest member of the new block")
        let before = LargeGroupFill.pathCiphertexts(tree: tree, leaf: 256)
        XCTAssertGreaterThan(before, 40)

        let last = try XCTUnwrap(release.welcomes.last)
        let key = try XCTUnwrap(people.first { $0.key.publicKey.hex == last.recipient }?.key)
        let opened = try G.openWelcome(gift: try GiftWrap.unwrap(last.wrap, recipient: key), recipient: key, store: store)
        var filler = try G.join(opened, treeChunkEvents: release.treeChunks, store: store)
        XCTAssertTrue(filler.shouldFillAfterJoin)
        let update = try filler.commit(budget: .standard, now: now, rng: rng)
        _ = try filler.confirmPublished(update, acknowledgedBy: relays, now: now)
        guard case .commitApplied? = g.receive(event: update.event, now: now).first else { return XCTFail("the admin did not apply the fill") }
        XCTAssertFalse(filler.shouldFillAfterJoin)
        XCTAssertFalse(g.state.tree.occupiedLeaves.contains { LargeGroupFill.shouldFill(tree: g.state.tree, leaf: $0) })
        // A member of block 1 now encrypts to its block's blank part, one node for block 0.
        let after = LargeGroupFill.pathCiphertexts(tree: g.state.tree, leaf: 256)
        XCTAssertLessThan(after, before)
        XCTAssertLessThan(LargeGroupFill.pathCiphertexts(tree: g.state.tree, leaf: 0), LargeGroupFill.pathCiphertexts(tree: tree, leaf: 0))
    }
}
