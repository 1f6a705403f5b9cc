import XCTest
import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitMLS

/// Add-only Commits without an UpdatePath (PROTOCOL §5.11, RFC 9420 §12.4): once a member's path
/// would take more than half the budget, its adds go without one, so a group whose parents are
/// blank keeps growing within the budget; members and joiners derive the same epoch.
final class LargeGroupPathlessAddTests: XCTestCase {
    typealias G = MarmotGroup<MLSGroupState>
    let now: Int64 = 1_800_000_000
    let relays = ["wss://relay.example.com"]

    func testAddsPastHalfTheBudgetGoWithoutAPathAndEveryoneAgrees() throws {
        let rng = SeededRandom(seed: 77)
        let budget = try EventBudget(maxEventBytes: 16_384)
        let admin = Secp256k1.PrivateKey(using: rng)
        let (_, bundle) = try KeyPackageEvent.create(nostrKey: admin, relays: relays, lastResort: false, now: now)
        var g = try G.create(creator: bundle, name: "grow", relays: relays, outOfBandTree: true, rng: rng)
        let store = MemoryKeyPackageStore()
        var people: [(key: Secp256k1.PrivateKey, kp: ValidatedKeyPackage)] = []
        for _ in 0..<260 {
            let key = Secp256k1.PrivateKey(using: rng)
            let (event, b) = try KeyPackageEvent.create(nostrKey: key, relays: relays, lastResort: false, now: now)
            try store.save(b)
            people.append((key, try KeyPackageValidator.validate(event, now: now)))
        }
        // Bob joins first (a small group: the add keeps its path) and follows every later commit.
        var step = try g.nextAddCommit(from: [people[0].kp], budget: budget, now: now, rng: rng)
        XCTAssertFalse(g.updatePathIsOverHalf(of: budget))
        var release = try g.confirmPublished(step.pending, acknowledgedBy: relays, wrappingWelcomesFrom: admin, budget: budget, now: now, rng: rng)
        let bobKey = people[0].key
        var bob = try G.join(try G.openWelcome(gift: try GiftWrap.unwrap(release.welcomes[0].wrap, recipient: bobKey), recipient: bobKey, store: store),
                             treeChunkEvents: release.treeChunks, store: store)

        var remaining = Array(people.dropFirst().map(\.kp))
        var pathless = 0
        while !remaining.isEmpty {
            let overHalf = g.updatePathIsOverHalf(of: budget)
            step = try g.nextAddCommit(from: remaining, budget: budget, now: now, rng: rng)
            XCTAssertLessThanOrEqual(EventBudget.wireBytes(step.pending.event), budget.maxEventBytes)
            if overHalf { pathless += 1 }
            release = try g.confirmPublished(step.pending, acknowledgedBy: relays, wrappingWelcomesFrom: admin, budget: budget, now: now, rng: rng)
            guard case .commitApplied? = bob.receive(event: step.pending.event, now: now).first else { return XCTFail("bob did not apply a commit") }
            XCTAssertEqual(bob.epoch, g.epoch)
            XCTAssertEqual(bob.state.groupContext.treeHash, g.state.groupContext.treeHash)
            XCTAssertEqual(bob.state.epochSecrets.exporterSecret.withUnsafeBytes { Array($0) },
                           g.state.epochSecrets.exporterSecret.withUnsafeBytes { Array($0) }, "the same epoch secrets")
            remaining.removeFirst(step.added)
        }
        XCTAssertGreaterThan(pathless, 0, "a 261-leaf blank tree's path is over half of 16 KiB")
        XCTAssertEqual(g.state.memberIdentities.count, 261)

        // The last joiner of a pathless add opens its Welcome (tree out of band) and agrees too.
        let last = try XCTUnwrap(release.welcomes.last)
        let key = try XCTUnwrap(people.first { $0.key.publicKey.hex == last.recipient }?.key)
        let joined = try G.join(try G.openWelcome(gift: try GiftWrap.unwrap(last.wrap, recipient: key), recipient: key, store: store),
                                treeChunkEvents: release.treeChunks, store: store)
        XCTAssertEqual(joined.epoch, g.epoch)
        XCTAssertEqual(joined.state.groupContext.treeHash, g.state.groupContext.treeHash)

        // A message after the pathless adds reads both ways.
        let hi = try bob.message(EventTemplate(kind: MarmotProfile.chatMessageKind, content: "still here", createdAt: now), now: now, rng: rng)
        guard case let .message(rumor, _)? = g.receive(event: hi, now: now).first else { return XCTFail("the admin did not read bob") }
        XCTAssertEqual(rumor.content, "still here")
    }

    func testAnUpdatePathIsKeptWhenTheProposalsNeedOne() throws {
        let rng = SeededRandom(seed: 78)
        let admin = Secp256k1.PrivateKey(using: rng)
        let (_, bundle) = try KeyPackageEvent.create(nostrKey: admin, relays: relays, lastResort: false, now: now)
        let g = try G.create(creator: bundle, name: "keep", relays: relays, outOfBandTree: true, rng: rng)
        // A self-update asked for without a path still gets one (it has no proposal).
        let pending = try g.state.commit([], includeUpdatePath: false, rng: rng)
        var other = g.state
        try other.merge(pending)
        XCTAssertNotEqual(other.groupContext.treeHash, g.state.groupContext.treeHash, "the path changed the committer's leaf")
    }
}
