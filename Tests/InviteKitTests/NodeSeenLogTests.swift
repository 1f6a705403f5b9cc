import XCTest
import Foundation
import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr
import InviteKitStore
import InviteKitTestSupport
@testable import InviteKit

/// A node keeps a group's seen log as rows of `group_seen` (docs/storage.md §6; PROTOCOL §5.9),
/// not in its state: an accepted event inserts its rows, a duplicate writes nothing (also after a
/// restart), rows leave with the epoch window, and a state of the previous format moves its
/// entries to the table.
final class NodeSeenLogTests: XCTestCase {
    typealias G = MarmotGroup<MLSGroupState>
    private var directory: TemporaryDirectory!
    private let now: Int64 = 1_800_000_000
    private let relays = ["wss://relay.example.com"]

    override func setUp() { directory = TemporaryDirectory(prefix: "invitekit-seen") }
    override func tearDown() { directory = nil }

    /// Alice (engine only) and Bob, whose group is stored in a node's home as `state` (a
    /// `serialized()` of any version, tree inside).
    private func bobsHome(state: (G) throws -> SecureBytes = { $0.serialized() }) throws -> (alice: G, home: StoreHome, groupID: String) {
        let aliceKey = Secp256k1.PrivateKey(), bobKey = Secp256k1.PrivateKey(), store = MemoryKeyPackageStore()
        let (_, bundle) = try KeyPackageEvent.create(nostrKey: aliceKey, relays: relays, lastResort: false, now: now)
        var alice = try G.create(creator: bundle, name: "seen", relays: relays, rng: SeededRandom(seed: 31))
        let (e, b) = try KeyPackageEvent.create(nostrKey: bobKey, relays: relays, lastResort: false, now: now)
        try store.save(b)
        let wraps = try alice.confirmPublished(try alice.commit(adding: [try KeyPackageValidator.validate(e, now: now)], now: now),
                                               acknowledgedBy: relays, wrappingWelcomesFrom: aliceKey, now: now)
        let bob = try G.join(giftWrap: wraps[0], recipient: bobKey, store: store)
        let groupID = Hex.encode(bob.state.groupID)
        let home = StoreHome(directory: directory.file("bob"))
        try InviteKitNode.initialize(home: home, relays: relays, importing: bobKey.rawRepresentation, now: now)
        try Store.open(path: home.databasePath).write { tx in
            try tx.groups.save(StoredGroup(id: groupID, nostrGroupID: Hex.encode(bob.nostrGroupID), name: "seen", engine: "marmot-mls",
                                           engineVersion: 2, state: try state(bob), epoch: bob.epoch, currentTag: nil, relays: relays, updatedAt: now))
        }
        return (alice, home, groupID)
    }

    /// The database's bytes (main file and WAL): any committed transaction changes them.
    private func files(_ home: StoreHome) -> [Data?] {
        [home.databasePath, home.databasePath + "-wal"].map { FileManager.default.contents(atPath: $0) }
    }

    private func seenRows(_ home: StoreHome, _ groupID: String) throws -> [StoredSeenValue] {
        try Store.open(path: home.databasePath).read { tx in try tx.groupSeen.all(groupID: groupID) }
    }

    /// A message accepted inserts its id and content hash; after a restart a re-signed copy of it
    /// (another id, the same content) is a duplicate to the reopened node's log and writes nothing.
    func testAReSignedCopyAfterARestartIsADuplicateAndWritesNothing() async throws {
        var (alice, home, groupID) = try bobsHome()
        let m = try alice.message(EventTemplate(kind: 9, content: "hello", createdAt: now), now: now)
        var node: InviteKitNode? = try InviteKitNode(home: home, clock: { [now] in now })
        let stored = try await node!.handleGroupEvent(m)
        XCTAssertEqual(stored?.content, "hello")
        let rows = try seenRows(home, groupID)
        XCTAssertEqual(Set(rows.map(\.value)), [MarmotSeenLog.value(ofEventID: m.id), SHA256.hash(Array(m.content.utf8))])
        XCTAssertEqual(Set(rows.map(\.epoch)), [alice.epoch])
        let stateRow = try Store.open(path: home.databasePath).read { tx in try tx.groups.get(id: groupID) }
        XCTAssertEqual(try XCTUnwrap(stateRow).state.exportBytes().first, G.serializationVersion)
        await node!.shutdown()
        node = nil

        let reopened = try InviteKitNode(home: home, clock: { [now] in now })
        let reopenedEntry = await reopened.registry[groupID]
        let log = try XCTUnwrap(reopenedEntry).group.seenLog
        XCTAssertEqual(log.entries.map(\.value), rows.map(\.value), "the log is read back from its rows")
        XCTAssertTrue(log.changes.isEmpty)
        let copy = try EventTemplate(kind: m.kind, content: m.content, tags: m.tags, createdAt: m.createdAt + 1).signed(by: Secp256k1.PrivateKey())
        var probe = try XCTUnwrap(reopenedEntry).group
        let receipt = probe.ingest(event: copy, now: now)
        guard case .duplicate? = receipt.outcomes.first else { return XCTFail("\(receipt.outcomes)") }
        XCTAssertFalse(receipt.stateChanged || receipt.seenChanged || receipt.bufferChanged)
        let before = files(home)
        for e in [copy, m] {
            let again = try await reopened.handleGroupEvent(e)
            XCTAssertNil(again)
        }
        XCTAssertEqual(files(home), before, "a duplicate wrote to the database")
        let history = try await reopened.history(of: groupID).map(\.content)
        XCTAssertEqual(history, ["hello"])
        await reopened.shutdown()
    }

    /// 300 messages in one epoch keep the newest 256 events' rows; eight commits later the rows
    /// of the epochs the window left are gone, and the table is the engine's log.
    func testRowsFollowTheEpochWindow() async throws {
        var (alice, home, groupID) = try bobsHome()
        let node = try InviteKitNode(home: home, clock: { [now] in now })
        for i in 0..<300 { try await node.handleGroupEvent(try alice.message(EventTemplate(kind: 9, content: "m\(i)", createdAt: now), now: now)) }
        XCTAssertEqual(try seenRows(home, groupID).count, MarmotSeenLog.entryLimitPerEpoch)
        for i in 0..<8 {
            let update = try alice.selfUpdate(now: now + Int64(i))
            _ = try alice.confirmPublished(update, acknowledgedBy: relays, now: now)
            try await node.handleGroupEvent(update.event)
            try await node.handleGroupEvent(try alice.message(EventTemplate(kind: 9, content: "e\(i)", createdAt: now), now: now))
        }
        let epoch = try await node.group(groupID).epoch
        XCTAssertEqual(epoch, alice.epoch)
        let rows = try seenRows(home, groupID)
        let start = MarmotSeenLog.windowStart(at: epoch)
        XCTAssertEqual(Set(rows.map(\.epoch)), Set(start...epoch))
        let entry = await node.registry[groupID]
        let log = try XCTUnwrap(entry).group.seenLog
        XCTAssertEqual(rows.map(\.value), log.entries.map(\.value))
        XCTAssertEqual(rows.map(\.sequence), log.entries.map(\.sequence))
        XCTAssertTrue(log.changes.isEmpty, "every change was saved")
        await node.shutdown()
    }

    /// A group stored by the previous format (`marmot_group` version 4, seen entries inside):
    /// the node reads them from the state, its next save moves them to `group_seen`.
    func testAVersion4StatesEntriesMoveToTheTable() async throws {
        var (alice, home, groupID) = try bobsHome { bob in
            var b = bob
            b.seenLog.record(eventID: String(repeating: "1f", count: 32), contentHash: SHA256.hash([7]), epoch: bob.epoch, currentEpoch: bob.epoch)
            return SecureBytes(copying: try MarmotStateV4.downgrade(b))
        }
        let node = try InviteKitNode(home: home, clock: { [now] in now })
        XCTAssertEqual(try seenRows(home, groupID).count, 0)
        let entry = await node.registry[groupID]
        let log = try XCTUnwrap(entry).group.seenLog
        XCTAssertTrue(log.contains(contentHash: SHA256.hash([7])))
        try await node.handleGroupEvent(try alice.message(EventTemplate(kind: 9, content: "after", createdAt: now), now: now))
        let values = Set(try seenRows(home, groupID).map(\.value))
        XCTAssertTrue(values.contains(SHA256.hash([7])), "the migrated entry was saved")
        XCTAssertEqual(values.count, 4)
        await node.shutdown()
    }
}
