import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit

/// A group event whose database write fails (a full disk, on a small tmpfs) leaves the group's
/// in-memory state where it was and surfaces as `store_full`: thrown by the handler, and ending
/// ``InviteKitNode/run()``. Once there is room again, the same event is processed, exactly once.
final class NodeGroupEventWriteFailureTests: XCTestCase {
    private let homes = NodeHomes()

    override func tearDown() { homes.remove() }

    private func texts(_ node: InviteKitNode, _ groupID: String) async throws -> [String] {
        try await node.history(of: groupID).map(\.content)
    }

    func testFailedWriteKeepsTheStateAndTheEventIsProcessedOnceLater() async throws {
        let mount = try TmpfsMount(sizeKiB: 8192)
        let ada = try homes.node("ada", seed: 1)
        let deeHome = StoreHome(directory: mount.file("dee"))
        try InviteKitNode.initialize(home: deeHome, relays: [homes.relay.url], rng: SeededRandom(seed: 2))
        let now = homes.now
        // No KeyPackage top-up: the writes under test are the group event's.
        var configuration = homes.runtime
        configuration.keyPackageLowWater = 0
        let dee = try InviteKitNode(home: deeHome, configuration: configuration, clock: { now }, rng: SeededRandom(seed: 102))
        var runners = [ada, dee].map { n in Task { try await n.run() } }
        let group = try await ada.createGroup(name: "club")
        let invite = try await ada.createInvite(groupID: group.id, singleUse: false, expiresIn: 3600)
        _ = try await dee.join(invite.url, timeout: .seconds(30))
        runners.forEach { $0.cancel() }
        for r in runners { _ = await r.result }

        // The handler: the write fails, the error is thrown, the ratchet did not move.
        let sent = try await ada.sendMessage(text: "kept", groupID: group.id)
        let json = try XCTUnwrap(try ada.store.read { tx in try tx.outbound.entry(eventID: sent.eventID) }).eventJSON
        let event = try NostrEvent(json: json)
        let before = await dee.registry[group.id]!.group.serialized()
        mount.fill()
        do {
            try await dee.handleGroupEvent(event)
            XCTFail("the write to a full disk succeeded")
        } catch {
            XCTAssertEqual(InviteKitError.from(error).code, .storeFull, "\(error)")
        }
        let after = await dee.registry[group.id]!.group.serialized()
        XCTAssertTrue(after.constantTimeEquals(before), "the in-memory state advanced past a failed write")
        try FileManager.default.removeItem(atPath: mount.file("fill"))
        let received = try await dee.handleGroupEvent(event)
        XCTAssertEqual(received?.content, "kept", "the event could not be processed again: its key was used up")
        let again = try await dee.handleGroupEvent(event)
        XCTAssertNil(again)
        let history = try await texts(dee, group.id)
        XCTAssertEqual(history, ["kept"])

        // Through run(): the failed write ends it with store_full; a new run on a disk with room
        // stores the message, once.
        mount.fill()
        runners = [Task { try await ada.run() }]
        let failed = Task { () -> InviteKitError? in
            do throws(InviteKitError) { try await dee.run(); return nil } catch { return error }
        }
        _ = try await ada.send("after the full disk", to: group.id)
        let ended = await failed.value
        XCTAssertEqual(ended?.code, .storeFull, "\(String(describing: ended))")
        let unchanged = try await texts(dee, group.id)
        XCTAssertEqual(unchanged, ["kept"])
        try FileManager.default.removeItem(atPath: mount.file("fill"))
        let events = dee.events()
        runners.append(Task { try await dee.run() })
        defer { runners.forEach { $0.cancel() } }
        let arrived = Task {
            for await e in events { if case .messageReceived(let m) = e, m.content == "after the full disk" { return true } }
            return false
        }
        let timer = Task { try await Task.sleep(for: .seconds(30)); arrived.cancel() }
        let gotIt = await arrived.value
        timer.cancel()
        XCTAssertTrue(gotIt, "the message never arrived after the disk had room again")
        let final = try await texts(dee, group.id)
        XCTAssertEqual(final, ["kept", "after the full disk"])
    }
}
