import XCTest
import Foundation
import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr
import InviteKitStore
import InviteKitTestSupport
@testable import InviteKit

/// A node's groups are stored as their serialized Marmot state, with the current ratchet tree in
/// chunks apart (docs/storage.md §6), and survive a restart.
final class NodeGroupPersistenceTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUp() {
        directory = TemporaryDirectory(prefix: "invitekit-node")
    }

    override func tearDown() { directory = nil }

    func testHostedGroupSurvivesARestart() async throws {
        let now: Int64 = 1_700_000_000
        let home = StoreHome(directory: directory.file("home"))
        try InviteKitNode.initialize(home: home, relays: ["ws://relay.test"], rng: SeededRandom(seed: 1))
        var node: InviteKitNode? = try InviteKitNode(home: home, clock: { now }, rng: SeededRandom(seed: 2))
        let group = try await node!.createHostedGroup(name: "book club")
        _ = try await node!.send("before", to: group.conversationID)
        let row = try XCTUnwrap(try node!.store.read { tx in try tx.groups.get(id: group.conversationID) })
        XCTAssertEqual(row.engine, "marmot-mls")
        XCTAssertEqual(row.engineVersion, MarmotMLSGroup.engineVersion)
        XCTAssertGreaterThan(row.state.count, 0)

        await node!.shutdown()
        node = nil
        let restarted = try InviteKitNode(home: home, clock: { now }, rng: SeededRandom(seed: 3))
        let found = await restarted.hostedGroup(group.conversationID)
        let back = try XCTUnwrap(found)
        XCTAssertEqual(back.nostrGroupID, group.nostrGroupID)
        XCTAssertEqual(back.currentTag, group.currentTag)
        XCTAssertEqual(back.name, "book club")
        XCTAssertEqual(back.group.epoch, group.group.epoch)
        XCTAssertTrue(back.group.isAdmin)
        let sent = try await restarted.sendMessage(text: "after", groupID: group.conversationID)
        XCTAssertEqual(sent.content, "after")
    }

    func testAStateOfAnotherEngineIsRefused() {
        XCTAssertThrowsError(try MarmotMLSGroup.restore(engine: "invitekit-legacy", version: 0, state: SecureBytes(zeroedCount: 0)) { [] })
        XCTAssertThrowsError(try MarmotMLSGroup.restore(engine: "marmot-mls", version: 1, state: SecureBytes(copying: [1, 2, 3])) { [] })
        XCTAssertThrowsError(try MarmotMLSGroup.restore(engine: "marmot-mls", version: 4, state: SecureBytes(copying: [1, 2, 3])) { [] })
    }

    /// A member of a 60-member group whose row is in the previous format (version 2, tree
    /// inside): the node reads it; its first save writes the tree apart; a message then rewrites
    /// no chunk (a damaged chunk it did not touch stays damaged, and the next start refuses it
    /// with a typed error); repaired, the group opens again.
    func testTreeChunksAreWrittenByDifferenceAndTheLastFormatMigrates() async throws {
        typealias G = MarmotGroup<MLSGroupState>
        let now: Int64 = 1_800_000_000, relays = ["wss://relay.example.com"]
        let aliceKey = Secp256k1.PrivateKey()
        let (_, bundle) = try KeyPackageEvent.create(nostrKey: aliceKey, relays: relays, lastResort: false, now: now)
        var alice = try G.create(creator: bundle, name: "chunks", relays: relays, rng: SeededRandom(seed: 21))
        let bobKey = Secp256k1.PrivateKey(), bobStore = MemoryKeyPackageStore()
        var kps: [ValidatedKeyPackage] = []
        for i in 0..<60 {
            let key = i == 0 ? bobKey : Secp256k1.PrivateKey()
            let (e, b) = try KeyPackageEvent.create(nostrKey: key, relays: relays, lastResort: false, now: now)
            if i == 0 { try bobStore.save(b) }
            kps.append(try KeyPackageValidator.validate(e, now: now))
        }
        let wraps = try alice.confirmPublished(try alice.commit(adding: kps, now: now), acknowledgedBy: relays, wrappingWelcomesFrom: aliceKey, now: now)
        let bob = try G.join(giftWrap: wraps[0], recipient: bobKey, store: bobStore)
        let groupID = Hex.encode(bob.state.groupID)

        let home = StoreHome(directory: directory.file("bob"))
        try InviteKitNode.initialize(home: home, relays: relays, importing: bobKey.rawRepresentation, now: now)
        let store = try Store.open(path: home.databasePath)
        try store.write { tx in
            try tx.groups.save(StoredGroup(id: groupID, nostrGroupID: Hex.encode(bob.nostrGroupID), name: "chunks", engine: "marmot-mls",
                                           engineVersion: 2, state: bob.serialized(), epoch: bob.epoch, currentTag: nil, relays: relays, updatedAt: now))
        }
        var node: InviteKitNode? = try InviteKitNode(home: home, clock: { now })
        _ = try await node!.send("first", to: groupID)
        let (row, chunks) = try store.read { tx in (try tx.groups.get(id: groupID), try tx.treeChunks.all(groupID: groupID)) }
        XCTAssertEqual(row?.engineVersion, MarmotMLSGroup.engineVersion, "the first save writes the tree apart")
        XCTAssertEqual(try RatchetTree(storedChunks: chunks), bob.state.tree)
        XCTAssertGreaterThanOrEqual(chunks.count, 2)
        XCTAssertLessThan(try XCTUnwrap(row).state.count, bob.serialized().count - bob.state.tree.tlsSerialized.count / 2)

        // A chunk damaged behind the node's back: a message does not rewrite it.
        let damaged = chunks.count - 1
        try store.write { tx in try tx.treeChunks.write(groupID: groupID, changed: [(damaged, [0xFF])], count: chunks.count) }
        _ = try await node!.send("second", to: groupID)
        XCTAssertEqual(try store.read { tx in try tx.treeChunks.all(groupID: groupID) }[damaged], [0xFF], "a message rewrote a tree chunk")
        await node!.shutdown()
        node = nil

        // The next start opens the home and sets the damaged group aside (issue 31, D6).
        var opened: InviteKitNode? = try InviteKitNode(home: home, clock: { now })
        let damage = await opened!.damagedGroups[groupID]
        XCTAssertEqual(damage?.code, .storeCorrupt)
        do { _ = try await opened!.send("third", to: groupID); XCTFail("a damaged group took a message") } catch {
            XCTAssertEqual(error.code, .storeCorrupt)
        }
        XCTAssertEqual(InviteKitNode.inspect(home: home).count, 1, "doctor's check names the group")
        await opened!.shutdown()
        opened = nil
        try store.write { tx in try tx.treeChunks.write(groupID: groupID, changed: [(damaged, chunks[damaged])], count: chunks.count) }
        let repaired = try InviteKitNode(home: home, clock: { now })
        let history = try await repaired.history(of: groupID).map(\.content)
        XCTAssertEqual(history, ["first", "second"])
    }
}
