import InviteKit
import XCTest
import InviteKitTestSupport

/// Large-group relay flows (PROTOCOL §5.11) over in-memory relays that refuse events over 65,536
/// bytes: the commit, the tree chunks, then the per-member Welcomes; the joiner fetches the chunks
/// and joins; missing chunks keep the KeyPackage.
final class LargeGroupRelayFlowTests: XCTestCase {
    typealias G = MarmotGroup<MLSGroupState>
    let relays = ["wss://relay.example.com"]

    /// A relay refusing what a 64 KiB relay refuses (the whole `["EVENT",…]` frame counted).
    func sizeLimitedRelay(_ url: String) async -> InMemoryRelay {
        let r = InMemoryRelay(url: url)
        await r.setPolicy { EventBudget.wireBytes($0) > 65_536 ? .reject("invalid: event too large") : .accept }
        return r
    }

    /// A 300-member group from one commit (its tree does not fit a 64 KiB Welcome), its admin key.
    func bigGroup() throws -> (G, Secp256k1.PrivateKey) {
        let admin = Secp256k1.PrivateKey()
        let (_, bundle) = try KeyPackageEvent.create(nostrKey: admin, relays: relays, lastResort: false)
        var g = try G.create(creator: bundle, name: "big", relays: relays, outOfBandTree: true)
        let others = try (0..<299).map { _ in
            try KeyPackageValidator.validate(try KeyPackageEvent.create(nostrKey: Secp256k1.PrivateKey(), relays: relays, lastResort: false).event)
        }
        let p = try g.commit(adding: others)
        _ = try g.confirmPublished(p, acknowledgedBy: relays)
        return (g, admin)
    }

    func testAJoinerEntersA300MemberGroupWithEveryEventWithin64KiB() async throws {
        let relay = await sizeLimitedRelay("memory://limited")
        let pool = RelayPool([relay])
        var (g, admin) = try bigGroup()
        let bob = Secp256k1.PrivateKey(), store = MemoryKeyPackageStore()
        let (kpEvent, bundle) = try KeyPackageEvent.create(nostrKey: bob, relays: relays, lastResort: false)
        try store.save(bundle)

        let pending = try g.commit(adding: [try KeyPackageValidator.validate(kpEvent)], budget: .standard)
        let gate = await pool.publish(pending.event)
        XCTAssertEqual(gate.successCount, 1)
        let release = try g.confirmPublished(pending, acknowledgedBy: gate.succeeded.map(\.relay), wrappingWelcomesFrom: admin, budget: .standard)
        XCTAssertGreaterThanOrEqual(release.treeChunks.count, 1, "a 301-member tree does not fit a 64 KiB Welcome")
        let outcome = try await LargeGroupPublish.publish(release, to: pool, budget: .standard)
        XCTAssertFalse(outcome.welcomesWithheld)
        XCTAssertTrue(outcome.chunks.allSatisfy { $0.successCount == 1 })
        XCTAssertEqual(outcome.welcomes.map(\.successCount), [1])
        let log = await relay.log
        XCTAssertEqual(log.count, 2 + release.treeChunks.count)
        for entry in log {
            XCTAssertLessThanOrEqual(EventBudget.wireBytes(entry.event), 65_536)
            guard case .accepted = entry.outcome else { return XCTFail("the relay refused kind \(entry.event.kind)") }
        }
        // Chunks reached the relay before the Welcome.
        XCTAssertEqual(log.map(\.event.kind), [445] + release.treeChunks.map { _ in RatchetTreeChunks.kind } + [1059])

        let stored = await relay.events(matching: [NostrFilter(kinds: [1059])])
        let wrap = try XCTUnwrap(stored.first)
        let gift = try GiftWrap.unwrap(wrap, recipient: bob)
        // Nowhere to fetch the chunks from: typed error, KeyPackage kept.
        let empty = RelayPool([InMemoryRelay(url: "memory://empty")])
        do {
            _ = try await LargeGroupJoin.join(gift: gift, recipient: bob, store: store, welcomeRelays: nil, ownRelays: empty, timeout: .milliseconds(300))
            XCTFail("joined without the tree")
        } catch {
            XCTAssertEqual(error.code, .welcomeFailed)
            XCTAssertEqual(error.underlyingCode, MLSError.Code.treeChunksMissing.rawValue)
        }
        XCTAssertEqual(try store.references().count, 1)

        // The Welcome's relays (here unreachable: empty) first, then the node's own.
        var joined = try await LargeGroupJoin.join(gift: gift, recipient: bob, store: store, welcomeRelays: { _ in empty }, ownRelays: pool)
        XCTAssertEqual(joined.epoch, g.epoch)
        XCTAssertEqual(joined.state.memberIdentities.count, 301)
        XCTAssertEqual(try store.references().count, 0)

        let hi = try joined.message(EventTemplate(kind: MarmotProfile.chatMessageKind, content: "hi all"))
        XCTAssertTrue(EventBudget.standard.fits(hi))
        guard case let .message(rumor, _)? = g.receive(event: hi).first else { return XCTFail("the admin did not read it") }
        XCTAssertEqual(rumor.content, "hi all")
    }

    func testWelcomesAreWithheldWhenNoRelayStoresAChunk() async throws {
        let relay = InMemoryRelay(url: "memory://nochunks")
        await relay.setPolicy { $0.kind == RatchetTreeChunks.kind ? .reject("blocked: no chunks") : .accept }
        var (g, admin) = try bigGroup()
        let (kpEvent, _) = try KeyPackageEvent.create(nostrKey: Secp256k1.PrivateKey(), relays: relays, lastResort: false)
        let pending = try g.commit(adding: [try KeyPackageValidator.validate(kpEvent)], budget: .standard)
        let release = try g.confirmPublished(pending, acknowledgedBy: relays, wrappingWelcomesFrom: admin, budget: .standard)
        let outcome = try await LargeGroupPublish.publish(release, to: RelayPool([relay]), budget: .standard)
        XCTAssertTrue(outcome.welcomesWithheld)
        XCTAssertTrue(outcome.welcomes.isEmpty)
        let wraps = await relay.events(matching: [NostrFilter(kinds: [1059])])
        XCTAssertTrue(wraps.isEmpty, "no Welcome may name chunks no relay holds")
        // A budget smaller than the events: nothing is published at all.
        let before = await relay.log.count
        let small = try EventBudget(maxEventBytes: 9_000)
        do {
            _ = try await LargeGroupPublish.publish(release, to: RelayPool([relay]), budget: small)
            XCTFail("published over the budget")
        } catch {
            XCTAssertEqual(error.code, .tooLarge)
            XCTAssertEqual(error.underlyingCode, MLSError.Code.eventTooLarge.rawValue)
        }
        let after = await relay.log.count
        XCTAssertEqual(after, before)
    }
}
