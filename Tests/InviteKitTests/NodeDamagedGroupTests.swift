import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit
import InviteKitStore

/// One group with damaged state does not block the home (issue 31, D6): the node opens, other
/// groups send and make invites, the damaged one answers with a typed error, and the home
/// inspection behind `doctor` names it, as it names a broken `identity.key`.
final class NodeDamagedGroupTests: XCTestCase {
    private let homes = NodeHomes()

    override func tearDown() { homes.remove() }

    func testADamagedGroupIsSetAsideAndTheRestWorks() async throws {
        var ada: InviteKitNode? = try homes.node("ada", seed: 1)
        let broken = try await ada!.createGroup(name: "broken")
        let healthy = try await ada!.createGroup(name: "healthy")
        await ada!.shutdown()
        ada = nil
        let home = homes.home("ada")
        XCTAssertEqual(InviteKitNode.inspect(home: home), [])
        let store = try Store.open(path: home.databasePath)
        try store.write { tx in
            var row = try XCTUnwrap(try tx.groups.get(id: broken.id))
            row.state = SecureBytes(copying: [UInt8](repeating: 0x42, count: 64))
            try tx.groups.save(row)
        }

        let restarted = try homes.node("ada", seed: 1, initialize: false)
        let damage = await restarted.damagedGroups[broken.id]
        XCTAssertEqual(damage?.code, .storeCorrupt)
        do { _ = try await restarted.send("lost", to: broken.id); XCTFail("the damaged group took a message") } catch {
            XCTAssertEqual(error.code, .storeCorrupt)
        }
        _ = try await restarted.send("still here", to: healthy.id)
        _ = try await restarted.createInvite(groupID: healthy.id, singleUse: true, expiresIn: 3600)
        let problems = InviteKitNode.inspect(home: home)
        XCTAssertEqual(problems.count, 1)
        XCTAssertTrue(problems[0].contains(broken.id), problems[0])
        await restarted.shutdown()

        // A key file of the wrong size is named too.
        let keyPath = home.identityKeyPath
        let original = try Data(contentsOf: URL(fileURLWithPath: keyPath))
        try Data(repeating: 0, count: 16).write(to: URL(fileURLWithPath: keyPath))
        XCTAssertTrue(InviteKitNode.inspect(home: home).contains { $0.hasPrefix("identity.key") })
        try original.write(to: URL(fileURLWithPath: keyPath))
    }
}
