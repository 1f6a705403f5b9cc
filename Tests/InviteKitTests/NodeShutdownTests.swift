import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit

/// ``InviteKitNode/shutdown()`` (issue 30): it ends ``InviteKitNode/run()``, every later call
/// throws `node_shut_down`, and the home's lock is free when it returns.
final class NodeShutdownTests: XCTestCase {
    private let homes = NodeHomes()

    override func tearDown() { homes.remove() }

    func testShutdownEndsRunRefusesLaterCallsAndFreesTheHome() async throws {
        let ada = try homes.node("ada", seed: 1)
        let group = try await ada.createGroup(name: "club")
        let runner = Task { try await ada.run() }
        // Running for real: the first round has started before the shutdown.
        let events = ada.events()
        try await ada.send("before", to: group.id)
        for await e in events { if case .messageDelivered = e { break } }

        await ada.shutdown()
        // `run()` returned by itself: nothing cancelled its task.
        let ended = await runner.result
        if case .failure(let error) = ended { XCTFail("run() threw \(error)") }
        let stillRunning = await ada.isRunning
        XCTAssertFalse(stillRunning)

        for (name, call) in Self.calls(group: group.id) {
            do {
                try await call(ada)
                XCTFail("\(name) worked after shutdown")
            } catch {
                XCTAssertEqual(error.code, .nodeShutDown, name)
            }
        }
        await ada.shutdown()  // a second shutdown does nothing

        // The lock went with `shutdown()`, not with the last reference (`ada` is still held).
        let reopened = try InviteKitNode(home: homes.home("ada"), configuration: homes.runtime)
        let history = try await reopened.history(of: group.id)
        XCTAssertEqual(history.map(\.content), ["before"])
        await reopened.shutdown()
        withExtendedLifetime(ada) {}
    }

    /// A node that never ran: shutdown frees the lock all the same.
    func testShutdownWithoutRunFreesTheLock() async throws {
        let ada = try homes.node("ada", seed: 1)
        do {
            _ = try InviteKitNode(home: homes.home("ada"), configuration: homes.runtime)
            XCTFail("a second node opened a locked home")
        } catch {
            XCTAssertEqual(error.code, .storeLocked)
        }
        await ada.shutdown()
        let again = try InviteKitNode(home: homes.home("ada"), configuration: homes.runtime)
        await again.shutdown()
        withExtendedLifetime(ada) {}
    }

    /// One call of each public method, each of which must refuse a shut-down node.
    private static func calls(group: String) -> [(String, @Sendable (InviteKitNode) async throws(InviteKitError) -> Void)] {
        let key = try! Secp256k1.PrivateKey(rawRepresentation: [UInt8](repeating: 7, count: 32)).publicKey
        return [
            ("run", { n throws(InviteKitError) in try await n.run() }),
            ("send", { n throws(InviteKitError) in _ = try await n.send("after", to: group) }),
            ("createGroup", { n throws(InviteKitError) in _ = try await n.createGroup(name: "x") }),
            ("createInvite", { n throws(InviteKitError) in _ = try await n.createInvite(groupID: group, singleUse: false, expiresIn: nil) }),
            ("revokeInvites", { n throws(InviteKitError) in _ = try await n.revokeInvites(groupID: group) }),
            ("groups", { n throws(InviteKitError) in _ = try await n.groups() }),
            ("group", { n throws(InviteKitError) in _ = try await n.group(group) }),
            ("members", { n throws(InviteKitError) in _ = try await n.members(of: group) }),
            ("history", { n throws(InviteKitError) in _ = try await n.history(of: group) }),
            ("invites", { n throws(InviteKitError) in _ = try await n.invites(of: group) }),
            ("defaultRelays", { n throws(InviteKitError) in _ = try await n.defaultRelays() }),
            ("pendingJoins", { n throws(InviteKitError) in _ = try await n.pendingJoins() }),
            ("startJoin", { n throws(InviteKitError) in _ = try await n.startJoin(invite: "https://example.invalid/#x") }),
            ("waitForJoin", { n throws(InviteKitError) in _ = try await n.waitForJoin("00") }),
            ("selfUpdate", { n throws(InviteKitError) in _ = try await n.selfUpdate(groupID: group) }),
            ("leaveGroup", { n throws(InviteKitError) in _ = try await n.leaveGroup(groupID: group) }),
            ("addMember", { n throws(InviteKitError) in _ = try await n.addMember(key, to: group) }),
            ("addMembers", { n throws(InviteKitError) in _ = try await n.addMembers([key], to: group) }),
            ("removeMember", { n throws(InviteKitError) in _ = try await n.removeMember(key, groupID: group) }),
            ("pendingApprovals", { n throws(InviteKitError) in _ = try await n.pendingApprovals(groupID: group) }),
            ("approveJoin", { n throws(InviteKitError) in _ = try await n.approveJoin(member: key, groupID: group) }),
            ("declineJoin", { n throws(InviteKitError) in _ = try await n.declineJoin(member: key, groupID: group) }),
        ]
    }
}
