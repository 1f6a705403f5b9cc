import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit

/// A node's groups are stored as their serialized Marmot state and survive a restart.
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
        XCTAssertEqual(row.engineVersion, Int(MarmotMLSGroup.serializationVersion))
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
        XCTAssertThrowsError(try MarmotMLSGroup.restore(engine: "invitekit-legacy", version: 0, state: SecureBytes(zeroedCount: 0)))
        XCTAssertThrowsError(try MarmotMLSGroup.restore(engine: "marmot-mls", version: 1, state: SecureBytes(copying: [1, 2, 3])))
    }
}
