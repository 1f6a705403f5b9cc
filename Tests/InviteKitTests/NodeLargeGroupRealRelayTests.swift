import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit

/// A large group built by the node over the real nostr-relay (PROTOCOL §5.11), the relay refusing
/// event content over 65,536 characters: adds in Commits that fit, the block fill rule played by
/// the members that trigger it, a joiner through an invite (tree out of band, then its own fill),
/// messages both ways, a removal, and every stored event within 65,536 bytes on the wire.
///
/// Members: `INVITEKIT_LARGE_GROUP_MEMBERS` (default 300, so `make test` stays short;
/// `make large-groups` runs 1,000).
final class NodeLargeGroupRealRelayTests: XCTestCase {
    typealias G = MarmotGroup<MLSGroupState>
    var relay: RelayProcess!
    let directory = TemporaryDirectory(prefix: "invitekit-large")

    override func setUpWithError() throws {
        try RelayProcess.requireRelay()
        relay = try RelayProcess()
        // nostr-relay counts content characters, not the event: every event is measured below too.
        relay.environment = ["RELAY_MAX_EVENT_SIZE": "65536"]
        try relay.start()
    }

    override func tearDown() { relay?.tearDown() }

    private func node(_ name: String, seed: UInt64) throws -> InviteKitNode {
        let home = StoreHome(directory: directory.file(name))
        try InviteKitNode.initialize(home: home, relays: [relay.url], rng: SeededRandom(seed: seed))
        return try InviteKitNode(home: home, configuration: .init(relayTimeout: .relayTimeout, idleInterval: .milliseconds(100)))
    }

    func testANodeRunsALargeGroupOverTheRealRelayWithin64KiB() async throws {
        let total = Int(ProcessInfo.processInfo.environment["INVITEKIT_LARGE_GROUP_MEMBERS"] ?? "") ?? 300
        XCTAssertGreaterThan(total, Int(LargeGroupFill.blockLeaves), "at least two blocks")
        let ada = try node("ada", seed: 1), bob = try node("bob", seed: 2)
        let runners = [ada, bob].map { node in Task { try await node.run() } }
        defer { runners.forEach { $0.cancel() } }
        let pool = RelayPool(urls: [relay.url])
        defer { Task { await pool.close() } }
        let group = try await ada.createGroup(name: "city", outOfBandTree: true)

        // Everyone but ada and bob: KeyPackages on the relay; the private parts kept for those
        // who will fill their block (the highest leaf of each full block).
        let store = MemoryKeyPackageStore()
        var keys: [Secp256k1.PrivateKey] = []
        for _ in 0..<(total - 1) {
            let key = Secp256k1.PrivateKey()
            let (event, bundle) = try KeyPackageEvent.create(nostrKey: key, relays: [relay.url], lastResort: false)
            try store.save(bundle)
            let published = await pool.publish(event, timeout: .relayTimeout)
            XCTAssertEqual(published.successCount, 1)
            keys.append(key)
        }

        // Block by block (member i sits at leaf i + 1): add the block, then its highest member
        // joins and fills it, as a node does on joining (LargeGroupFill).
        let block = Int(LargeGroupFill.blockLeaves)
        var next = 0
        while next < keys.count {
            let end = min(keys.count, (next + 1) / block * block + block - 1)
            let batch = Array(keys[next..<end])
            let added = try await ada.addMembers(batch.map(\.publicKey), to: group.id, timeout: .seconds(600))
            XCTAssertEqual(added.added.count, batch.count)
            next = end
            if (next + 1) % block == 0 { try await fill(as: keys[next - 1], store: store, pool: pool, admin: ada, groupID: group.id) }
        }
        let built = try await ada.members(of: group.id)
        XCTAssertEqual(built.members.count, total)

        // Bob joins through an invite and, as the highest member of the last block, fills it.
        let invite = try await ada.createInvite(groupID: group.id, singleUse: true, expiresIn: 3600)
        let joined = try await bob.join(invite.url, timeout: .seconds(300))
        XCTAssertEqual(joined.id, group.id)
        try await until("bob's fill reaches ada") { try await ada.members(of: group.id).epoch > joined.epoch }

        // Messages both ways.
        let adaEvents = ada.events(), bobEvents = bob.events()
        try await ada.send("hello, city", to: group.id)
        try await bob.send("hello, ada", to: group.id)
        let bobRead = await bobEvents.receives("hello, city")
        XCTAssertTrue(bobRead, "\"hello, city\" never arrived")
        let adaRead = await adaEvents.receives("hello, ada")
        XCTAssertTrue(adaRead, "\"hello, ada\" never arrived")

        // A removal, seen by bob.
        let gone = keys[3].publicKey
        _ = try await ada.removeMember(gone, groupID: group.id)
        try await until("bob sees the removal") { try await !bob.members(of: group.id).members.contains { $0.publicKey == gone } }

        // Every event on the relay fits 64 KiB on the wire.
        let stored = await pool.fetch([NostrFilter(kinds: [MarmotGroupEvent.kind, RatchetTreeChunks.kind, GiftWrap.wrapKind, KeyPackageEvent.kind],
                                                   limit: 6000)], timeout: .seconds(30)).events
        XCTAssertGreaterThan(stored.count, 2 * total)
        let largest = stored.map(EventBudget.wireBytes).max() ?? 0
        XCTAssertLessThanOrEqual(largest, EventBudget.defaultMaxEventBytes)
        print("large group over the real relay: \(total + 1) members, \(stored.count) events, largest \(largest) B")
    }

    /// The member `key` opens its Welcome from the relay (fetching the tree chunks) and, when the
    /// fill rule asks it to, makes its self-update and waits for the admin's node to apply it.
    private func fill(as key: Secp256k1.PrivateKey, store: MemoryKeyPackageStore, pool: RelayPool, admin: InviteKitNode, groupID: String) async throws {
        var wrap: NostrEvent?
        try await until("the Welcome of leaf filler") {
            wrap = await pool.fetch([GiftWrapCatchUp.filter(for: key.publicKey)], timeout: .relayTimeout).events.first
            return wrap != nil
        }
        let opened = try G.openWelcome(gift: try GiftWrap.unwrap(try XCTUnwrap(wrap), recipient: key), recipient: key, store: store)
        var chunks: [NostrEvent] = []
        if let reference = opened.treeChunks {
            chunks = await TreeChunkFetch.fetch(reference, from: [pool], deadline: ContinuousClock.now + .seconds(30))
        }
        let member = try G.join(opened, treeChunkEvents: chunks, store: store)
        // A group of one block never needs a fill: the admin's own paths cover it.
        guard member.shouldFillAfterJoin else { return XCTAssertEqual(member.state.tree.leafCount, LargeGroupFill.blockLeaves) }
        let epoch = try await admin.members(of: groupID).epoch
        XCTAssertEqual(member.epoch, epoch, "the filler is at the admin's epoch")
        let update = try member.commit(budget: .standard)
        let published = await pool.publish(update.event, timeout: .relayTimeout)
        XCTAssertEqual(published.successCount, 1)
        try await until("the admin applies the fill") { try await admin.members(of: groupID).epoch > epoch }
    }

    private func until(_ what: String, timeout: Duration = .seconds(120), _ condition: () async throws -> Bool) async throws {
        guard try await Poll.awaiting(timeout: timeout, every: .milliseconds(100), condition) else { throw TimedOut(what: what) }
    }

    private struct TimedOut: Error, CustomStringConvertible {
        let what: String
        var description: String { "timed out waiting for \(what)" }
    }
}
