import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit
@testable import InviteKitMLS

/// Group administration through running nodes over the real nostr-relay on loopback (issue 32;
/// PROTOCOL §5.16): rename, describe, promote and demote, relays, disband between three homes;
/// each refusal on send as a typed error, and a non-admin's Commit forged with the `mls` tool
/// refused by every receiver.
final class NodeGroupAdminRealRelayTests: XCTestCase {
    private var relay: RelayProcess!
    private let root = TemporaryDirectory(prefix: "invitekit-admin")

    override func setUpWithError() throws {
        try RelayProcess.requireRelay()
        relay = try RelayProcess()
        try relay.start()
    }

    override func tearDown() {
        relay?.tearDown()
    }

    private func node(_ name: String, seed: UInt64) throws -> InviteKitNode {
        let home = StoreHome(directory: root.file(name))
        try InviteKitNode.initialize(home: home, relays: [relay.url], rng: SeededRandom(seed: seed))
        let configuration = InviteKitNode.Configuration(relayTimeout: .seconds(10), idleInterval: .milliseconds(100), keyPackageLowWater: 0)
        return try InviteKitNode(home: home, configuration: configuration)
    }

    /// Every event a node emits from now on.
    private actor EventLog {
        private(set) var events: [NodeEvent] = []
        func add(_ e: NodeEvent) { events.append(e) }
    }

    private func log(_ n: InviteKitNode) async -> (EventLog, Task<Void, Never>) {
        let log = EventLog()
        let stream = n.events(bufferingNewest: 1024)
        let task = Task { for await e in stream { await log.add(e) } }
        return (log, task)
    }

    private func waitFor(_ seconds: Double = 30, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await condition()
    }

    /// `body` throws an ``InviteKitError`` with `code`.
    private func refused(_ code: InviteKitError.Code, _ what: String, _ body: () async throws -> Void) async {
        do {
            try await body()
            XCTFail("\(what): not refused")
        } catch let e as InviteKitError {
            XCTAssertEqual(e.code, code, "\(what): \(e)")
        } catch {
            XCTFail("\(what): \(error)")
        }
    }

    /// A group with Ada (its creator and admin), Bob and Cy, every node running.
    private func club(_ profile: MarmotWireProfile) async throws -> (InviteKitNode, InviteKitNode, InviteKitNode, String, [Task<Void, any Error>]) {
        let ada = try node("ada", seed: 1), bob = try node("bob", seed: 2), cy = try node("cy", seed: 3)
        let runs = [ada, bob, cy].map { n in Task { try await n.run() } }
        let group = try await ada.createGroup(name: "club", profile: profile)
        let invite = try await ada.createInvite(groupID: group.id, singleUse: false, expiresIn: 3600)
        _ = try await bob.join(invite.url, timeout: .seconds(60))
        _ = try await cy.join(invite.url, timeout: .seconds(60))
        return (ada, bob, cy, group.id, runs)
    }

    func testRenameDescribeAdminsRelaysAndDisbandBetweenThreeHomes() async throws {
        let (ada, bob, cy, group, runs) = try await club(.current)
        defer { for r in runs { r.cancel() } }
        let (bobLog, bobTask) = await log(bob), (cyLog, cyTask) = await log(cy)
        defer { bobTask.cancel(); cyTask.cancel() }
        let everyone = [ada, bob, cy]

        // Rename and describe: every member's row and group data follow, with an event.
        _ = try await ada.waitForCommit(try await ada.renameGroup(group, to: "the club"), timeout: .seconds(30))
        _ = try await ada.waitForCommit(try await ada.describeGroup(group, as: "where we meet"), timeout: .seconds(30))
        let renamed = try await waitFor {
            for n in everyone { let g = try await n.group(group); guard g.name == "the club", g.description == "where we meet" else { return false } }
            return true
        }
        XCTAssertTrue(renamed, "every member sees the new name and description")
        let profileEvents = await cyLog.events.filter { if case .groupProfileChanged(group, _, _) = $0 { return true } else { return false } }
        XCTAssertEqual(profileEvents.count, 2, "one event per profile change")

        // A member is no admin: every admin-only change is refused before anything is built.
        await refused(.notPermitted, "bob renames") { _ = try await bob.renameGroup(group, to: "bob's") }
        await refused(.notPermitted, "bob describes") { _ = try await bob.describeGroup(group, as: "x") }
        await refused(.notPermitted, "bob moves relays") { _ = try await bob.changeGroupRelays(group, to: [self.relay.url]) }
        await refused(.notPermitted, "bob disbands") { _ = try await bob.disbandGroup(group) }
        await refused(.notPermitted, "bob promotes himself") { _ = try await bob.promoteAdmin(bob.publicKey, in: group) }
        // The last admin neither demotes herself nor leaves.
        await refused(.lastAdmin, "ada demotes herself") { _ = try await ada.demoteAdmin(ada.publicKey, in: group) }
        await refused(.lastAdmin, "ada leaves") { _ = try await ada.leaveGroup(groupID: group) }

        // Ada promotes Bob, then steps down herself; Bob renames as the new admin.
        _ = try await ada.waitForCommit(try await ada.promoteAdmin(bob.publicKey, in: group), timeout: .seconds(30))
        let promoted = try await waitFor { try await bob.group(group).role == .admin }
        XCTAssertTrue(promoted)
        _ = try await ada.waitForCommit(try await ada.demoteAdmin(ada.publicKey, in: group), timeout: .seconds(30))
        let handedOver = try await waitFor {
            try await everyone.asyncMap { try await $0.members(of: group).members.filter(\.isAdmin).map(\.publicKey) }.allSatisfy { $0 == [bob.publicKey] }
        }
        XCTAssertTrue(handedOver, "Bob is the only admin everywhere")
        let v1 = await cyLog.events.contains { if case .adminsChanged(group, [bob.publicKey]) = $0 { return true } else { return false } }
        XCTAssertTrue(v1)
        await refused(.notPermitted, "ada, no longer admin, renames") { _ = try await ada.renameGroup(group, to: "ada's") }
        _ = try await bob.waitForCommit(try await bob.renameGroup(group, to: "bob's club"), timeout: .seconds(30))
        let bobRenamed = try await waitFor { try await ada.group(group).name == "bob's club" }
        XCTAssertTrue(bobRenamed)

        // New relays: the same relay under another URL. Every member routes by them, and
        // messages still flow.
        let moved = relay.url + "/"
        _ = try await bob.waitForCommit(try await bob.changeGroupRelays(group, to: [moved]), timeout: .seconds(30))
        let rerouted = try await waitFor {
            for n in everyone { guard try await n.group(group).relays == [moved] else { return false } }
            return true
        }
        XCTAssertTrue(rerouted, "every member's row names the new relays")
        let v2 = await cyLog.events.contains { if case .groupRelaysChanged(group, [moved]) = $0 { return true } else { return false } }
        XCTAssertTrue(v2)
        _ = try await cy.send("after the move", to: group)
        let delivered = try await waitFor { try await ada.history(of: group).contains { $0.content == "after the move" } }
        XCTAssertTrue(delivered, "a message sent after the move arrives")

        // Bob disbands: the others are removed, and nothing changes after. (A removed member's
        // engine does not read the disband Commit's new group data, so it reports the removal,
        // not `groupDisbanded`: see PROTOCOL §5.16.)
        _ = try await bob.waitForCommit(try await bob.disbandGroup(group), timeout: .seconds(30))
        let bobDisbanded = try await bob.group(group).isDisbanded
        XCTAssertTrue(bobDisbanded)
        let removed = try await waitFor {
            for n in [ada, cy] { guard try await n.group(group).isRemoved else { return false } }
            return true
        }
        XCTAssertTrue(removed, "every other member is removed")
        let v3 = await bobLog.events.contains { if case .groupDisbanded(group) = $0 { return true } else { return false } }
        XCTAssertTrue(v3)
        let v3b = await cyLog.events.contains { if case .removedFromGroup(group) = $0 { return true } else { return false } }
        XCTAssertTrue(v3b)
        await refused(.groupDisbanded, "bob renames the disbanded group") { _ = try await bob.renameGroup(group, to: "again") }
        await refused(.groupDisbanded, "bob updates his keys") { _ = try await bob.selfUpdate(groupID: group) }
        await refused(.notAMember, "ada renames the group she was removed from") { _ = try await ada.renameGroup(group, to: "again") }
    }

    /// A non-admin's rename forged with `invitekit mls rename --skip-admin-rule` from Cy's own
    /// group state, published to the group's relay: Ada and Bob refuse it with a typed event and
    /// keep the name.
    func testAForgedNonAdminCommitIsRefusedOnReceipt() async throws {
        let cli = try CLIProcesses()
        let (ada, bob, cy, group, runs) = try await club(.current)
        defer { for r in runs { r.cancel() } }
        let (adaLog, adaTask) = await log(ada), (bobLog, bobTask) = await log(bob)
        defer { adaTask.cancel(); bobTask.cancel() }

        // Cy's state as `invitekit mls` keeps it (its `--state` file, docs/cli.md §4).
        let state = root.file("cy.group")
        let cyGroup = try await cy.currentGroup(group)
        let file = VersionedEnvelope("group state file", version: 2, magic: Array("IKGS".utf8)).write(capacity: 8192) { w in
            cyGroup.serialized().withUnsafeBytes { w.writeOpaque($0) }
            w.writeOpaque([UInt8]())
            w.writeOpaque(cyGroup.buffer.serialized())
        }
        _ = FileManager.default.createFile(atPath: state, contents: Data(file), attributes: [.posixPermissions: 0o600])

        // Without the flag the tool refuses, as the node does.
        let (honest, honestOut) = try cli.start(["mls", "rename", "--state", state, "--name", "x"])
        honest.waitUntilExit(); honestOut.waitForEnd()
        XCTAssertNotEqual(honest.terminationStatus, 0, honestOut.text)
        XCTAssertTrue(honestOut.text.contains("admin"), honestOut.text)

        let (p, out) = try cli.start(["mls", "rename", "--state", state, "--name", "pwned", "--skip-admin-rule"])
        p.waitUntilExit(); out.waitForEnd()
        XCTAssertEqual(p.terminationStatus, 0, out.text)
        let line = try XCTUnwrap(out.text.split(separator: "\n").first.map(String.init))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let eventJSON = try JSONSerialization.data(withJSONObject: try XCTUnwrap(json["event"]))
        let forged = try NostrEvent(json: String(decoding: eventJSON, as: UTF8.self))

        let pool = RelayPool(urls: [relay.url])
        _ = await pool.publish(forged, timeout: .seconds(10))
        await pool.close()
        let refusedEverywhere = try await waitFor {
            let a = await adaLog.events, b = await bobLog.events
            func refusal(_ events: [NodeEvent]) -> Bool {
                events.contains { if case .commitRefused(group, forged.id, let e) = $0 { return e.code == .notPermitted } else { return false } }
            }
            return refusal(a) && refusal(b)
        }
        XCTAssertTrue(refusedEverywhere, "Ada and Bob report the forged Commit refused")
        for n in [ada, bob] { let name = try await n.group(group).name; XCTAssertEqual(name, "club") }
        // The group goes on: Ada's next change is built on the epoch the forgery did not move.
        _ = try await ada.waitForCommit(try await ada.renameGroup(group, to: "still ours"), timeout: .seconds(30))
        let moved = try await waitFor { try await bob.group(group).name == "still ours" }
        XCTAssertTrue(moved)
    }

    /// Read marks, mute and pin are this home's own: they round-trip, survive reopening the home,
    /// and the unread count follows messages from others.
    func testReadStateMuteAndPinRoundTripAndPersist() async throws {
        let (ada, bob, cy, group, runs) = try await club(.current)
        _ = cy
        for i in 0..<3 { _ = try await ada.send("m\(i)", to: group) }
        let arrived = try await waitFor { try await bob.history(of: group).count == 3 }
        XCTAssertTrue(arrived)
        var state = try await bob.readState(of: group)
        XCTAssertEqual(state.unreadCount, 3)
        XCTAssertFalse(state.muted); XCTAssertFalse(state.pinned)
        let history = try await bob.history(of: group)
        state = try await bob.markRead(group, upTo: history[1].eventID)
        XCTAssertEqual(state.unreadCount, 1)
        XCTAssertEqual(state.lastReadEventID, history[1].eventID)
        // A mark never moves back.
        state = try await bob.markRead(group, upTo: history[0].eventID)
        XCTAssertEqual(state.lastReadEventID, history[1].eventID)
        _ = try await bob.setMuted(true, groupID: group)
        _ = try await bob.setPinned(true, groupID: group)
        let own = try await bob.send("mine", to: group)
        XCTAssertFalse(own.isEmpty)
        let v4 = try await bob.readState(of: group).unreadCount
        XCTAssertEqual(v4, 1, "own messages are never unread")
        await refused(.notFound, "a mark on another group's message") { _ = try await bob.markRead(group, upTo: String(repeating: "0", count: 64)) }

        for r in runs { r.cancel() }
        await bob.shutdown()
        let reopened = try InviteKitNode(home: StoreHome(directory: root.file("bob")),
                                         configuration: InviteKitNode.Configuration(idleInterval: .milliseconds(100), keyPackageLowWater: 0))
        let after = try await reopened.readState(of: group)
        XCTAssertEqual(after.unreadCount, 1)
        XCTAssertEqual(after.lastReadEventID, history[1].eventID)
        XCTAssertTrue(after.muted); XCTAssertTrue(after.pinned)
        let v5 = try await reopened.setMuted(false, groupID: group).muted
        XCTAssertEqual(v5, false)
        let v6 = try await reopened.markRead(group).unreadCount
        XCTAssertEqual(v6, 0)
        await reopened.shutdown()
    }

    /// The self-update policy rotates the leaf after M own messages (M = 3 here), and its clock is
    /// stored: a restart neither resets it nor rotates again early.
    func testSelfUpdatePolicyTriggersAfterMessagesAndSurvivesRestart() async throws {
        let home = StoreHome(directory: root.file("solo"))
        try InviteKitNode.initialize(home: home, relays: [relay.url], rng: SeededRandom(seed: 7))
        let policy = NodeSelfUpdatePolicy(maxAge: 365 * 24 * 3600, maxMessages: 3)
        let configuration = InviteKitNode.Configuration(relayTimeout: .seconds(10), idleInterval: .milliseconds(100), keyPackageLowWater: 0,
                                                        selfUpdatePolicy: policy)
        var solo = try InviteKitNode(home: home, configuration: configuration)
        var run = Task { [solo] in try await solo.run() }
        let group = try await solo.createGroup(name: "solo").id
        let started = try await waitFor { try solo.store.read { tx in try tx.selfUpdates.lastUpdate(groupID: group) } != nil }
        XCTAssertTrue(started, "the policy starts the group's clock")
        let epoch0 = try await solo.group(group).epoch
        for i in 0..<2 { _ = try await solo.send("m\(i)", to: group) }
        try await Task.sleep(for: .milliseconds(500))
        let v7 = try await solo.group(group).epoch
        XCTAssertEqual(v7, epoch0, "two messages are under the bound")
        _ = try await solo.send("m2", to: group)
        let rotated = try await waitFor { try await solo.group(group).epoch == epoch0 + 1 }
        XCTAssertTrue(rotated, "the third message makes the rotation due")
        let clock = try solo.store.read { tx in try tx.selfUpdates.lastUpdate(groupID: group) }

        // Restart: the stored clock stands, and the count starts from it, not from zero again.
        run.cancel(); _ = await run.result
        await solo.shutdown()
        solo = try InviteKitNode(home: home, configuration: configuration)
        run = Task { [solo] in try await solo.run() }
        defer { run.cancel() }
        try await Task.sleep(for: .milliseconds(500))
        let v8 = try solo.store.read { tx in try tx.selfUpdates.lastUpdate(groupID: group) }
        XCTAssertEqual(v8, clock)
        let v9 = try await solo.group(group).epoch
        XCTAssertEqual(v9, epoch0 + 1, "no rotation right after a restart")
        try await Task.sleep(for: .seconds(1.1))
        for i in 0..<3 { _ = try await solo.send("n\(i)", to: group) }
        let again = try await waitFor { try await solo.group(group).epoch == epoch0 + 2 }
        XCTAssertTrue(again, "three more messages rotate again")
    }
}
