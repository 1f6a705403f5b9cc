import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit
@testable import InviteKitMLS

/// Group administration through running nodes over the real nostr-relay on loopback (issue 32;
/// PROTOCOL §5.16): rename, describe, promote and demote, relays, disband between three homes;
/// each refusal on send as a typed error, and a non-admin's Commit forged with the `mls` tool
/// refused by every receiver.
final class NodeGroupAdminRealRelayTests: RealRelayNodeTestCase {

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

    /// `admin` moves the group (`nodes` = Ada, Bob, Cy) to the same relay under another URL: every
    /// member's row names it, `log` has the event, and a message Cy sends after the move reaches Ada.
    private func moveRelays(by admin: InviteKitNode, of nodes: [InviteKitNode], group: String, log: EventLog) async throws {
        let moved = relay.url + "/"
        _ = try await admin.waitForCommit(try await admin.changeGroupRelays(group, to: [moved]), timeout: .seconds(30))
        let rerouted = try await waitFor {
            for n in nodes { guard try await n.group(group).relays == [moved] else { return false } }
            return true
        }
        XCTAssertTrue(rerouted, "every member's row names the new relays")
        let announced = try await waitFor { await log.events.contains { if case .groupRelaysChanged(group, [moved]) = $0 { return true } else { return false } } }
        XCTAssertTrue(announced, "the event log has the move (a separate task fills it)")
        _ = try await nodes[2].send("after the move", to: group)
        let delivered = try await waitFor { try await nodes[0].history(of: group).contains { $0.content == "after the move" } }
        XCTAssertTrue(delivered, "a message sent after the move arrives")
    }

    /// Every node lists `admin` as the group's only admin, and `log` has the event saying so.
    private func soleAdmin(_ admin: InviteKitNode, of nodes: [InviteKitNode], group: String, log: EventLog) async throws {
        let key = admin.publicKey
        let handedOver = try await waitFor {
            try await nodes.asyncMap { try await $0.members(of: group).members.filter(\.isAdmin).map(\.publicKey) }.allSatisfy { $0 == [key] }
        }
        XCTAssertTrue(handedOver, "one admin everywhere")
        let announced = try await waitFor { await log.events.contains { if case .adminsChanged(group, [key]) = $0 { return true } else { return false } } }
        XCTAssertTrue(announced, "the event log has the handover (a separate task fills it)")
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
        // One event per resolution that changed the profile: the two Commits may reach Cy in one
        // convergence pass (PROTOCOL §5.13), then one event carries both changes.
        let profileEvents: [(String, String)] = await cyLog.events.compactMap {
            if case .groupProfileChanged(group, let name, let description) = $0 { return (name, description) } else { return nil }
        }
        XCTAssertTrue((1...2).contains(profileEvents.count), "\(profileEvents)")
        XCTAssertEqual(profileEvents.last?.0, "the club")
        XCTAssertEqual(profileEvents.last?.1, "where we meet")

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
        try await soleAdmin(bob, of: everyone, group: group, log: cyLog)
        await refused(.notPermitted, "ada, no longer admin, renames") { _ = try await ada.renameGroup(group, to: "ada's") }
        _ = try await bob.waitForCommit(try await bob.renameGroup(group, to: "bob's club"), timeout: .seconds(30))
        let bobRenamed = try await waitFor { try await ada.group(group).name == "bob's club" }
        XCTAssertTrue(bobRenamed)

        try await moveRelays(by: bob, of: [ada, bob, cy], group: group, log: cyLog)

        // Bob disbands: every member sees it once, the two it removed included (they read the
        // group data of the Commit that removed them, PROTOCOL §5.16), without removal events,
        // and nothing changes after.
        let removalsBefore = await cyLog.events.filter { if case .memberRemoved = $0 { return true } else { return false } }.count
        _ = try await bob.waitForCommit(try await bob.disbandGroup(group), timeout: .seconds(30))
        let disbanded = try await waitFor {
            for n in everyone { guard try await n.group(group).isDisbanded else { return false } }
            return true
        }
        XCTAssertTrue(disbanded, "every member sees the group disbanded")
        for n in [ada, cy] { let removed = try await n.group(group).isRemoved; XCTAssertTrue(removed, "the disband took its leaf") }
        let v3 = await bobLog.events.contains { if case .groupDisbanded(group) = $0 { return true } else { return false } }
        XCTAssertTrue(v3)
        let cyEvents = await cyLog.events
        XCTAssertEqual(cyEvents.filter { if case .groupDisbanded(group) = $0 { return true } else { return false } }.count, 1)
        XCTAssertFalse(cyEvents.contains { if case .removedFromGroup(group) = $0 { return true } else { return false } }, "a disband is no removal")
        XCTAssertEqual(cyEvents.filter { if case .memberRemoved = $0 { return true } else { return false } }.count, removalsBefore)
        await refused(.groupDisbanded, "bob renames the disbanded group") { _ = try await bob.renameGroup(group, to: "again") }
        await refused(.groupDisbanded, "bob updates his keys") { _ = try await bob.selfUpdate(groupID: group) }
        await refused(.groupDisbanded, "bob sends") { _ = try await bob.send("anyone?", to: group) }
        await refused(.groupDisbanded, "ada renames the disbanded group") { _ = try await ada.renameGroup(group, to: "again") }
        await refused(.groupDisbanded, "ada sends") { _ = try await ada.send("hello?", to: group) }
        await refused(.groupDisbanded, "cy leaves") { _ = try await cy.leaveGroup(groupID: group) }
        await refused(.groupDisbanded, "cy sets a retention") { _ = try await cy.setMessageRetention(60, groupID: group) }

        // The mark is the stored group state's: Cy's home, reopened, still says disbanded.
        for r in runs { r.cancel() }
        await cy.shutdown()
        let reopened = try InviteKitNode(home: StoreHome(directory: root.file("cy")),
                                         configuration: InviteKitNode.Configuration(idleInterval: .milliseconds(100), keyPackageLowWater: 0))
        let stored = try await reopened.group(group)
        XCTAssertTrue(stored.isDisbanded)
        await refused(.groupDisbanded, "cy sends after a restart") { _ = try await reopened.send("still?", to: group) }
        await reopened.shutdown()
    }

    /// The MIP profile (`0xf2ee`, MDK 0.8) through invites: the invite says the profile (payload
    /// field 101, PROTOCOL §3.2), so the joiners send MIP-profile KeyPackages; rename, describe,
    /// promote, demote and relays reach every member. It has no lifecycle, so no disband.
    func testMIPProfileGroupDataChangesBetweenHomes() async throws {
        let (ada, bob, cy, group, runs) = try await club(.mip)
        defer { for r in runs { r.cancel() } }
        let (cyLog, cyTask) = await log(cy)
        defer { cyTask.cancel() }
        let everyone = [ada, bob, cy]
        for n in everyone { let profile = try await n.group(group).profile; XCTAssertEqual(profile, .mip) }

        _ = try await ada.waitForCommit(try await ada.renameGroup(group, to: "mip club"), timeout: .seconds(30))
        _ = try await ada.waitForCommit(try await ada.promoteAdmin(bob.publicKey, in: group), timeout: .seconds(30))
        let seen = try await waitFor {
            let c = try await cy.group(group), b = try await bob.group(group)
            return c.name == "mip club" && b.role == .admin
        }
        XCTAssertTrue(seen, "the rename and the promotion reached everyone")
        _ = try await bob.waitForCommit(try await bob.describeGroup(group, as: "by bob"), timeout: .seconds(30))
        let described = try await waitFor {
            let a = try await ada.group(group).description, c = try await cy.group(group).description
            return a == "by bob" && c == "by bob"
        }
        XCTAssertTrue(described, "the new admin's change reached everyone")

        try await moveRelays(by: bob, of: everyone, group: group, log: cyLog)

        // Bob demotes Ada: Bob is the only admin everywhere, and Ada's admin changes are refused.
        _ = try await bob.waitForCommit(try await bob.demoteAdmin(ada.publicKey, in: group), timeout: .seconds(30))
        try await soleAdmin(bob, of: everyone, group: group, log: cyLog)
        await refused(.notPermitted, "ada, no longer admin, renames") { _ = try await ada.renameGroup(group, to: "ada's") }
        await refused(.notPermitted, "cy renames") { _ = try await cy.renameGroup(group, to: "cy's") }
        await refused(.notPermitted, "a MIP group has no lifecycle to disband") { _ = try await bob.disbandGroup(group) }
        await refused(.lastAdmin, "bob demotes himself") { _ = try await bob.demoteAdmin(bob.publicKey, in: group) }
    }

    /// Writes `node`'s state of `group` as `invitekit mls` keeps it (its `--state` file,
    /// docs/cli.md §4) to a new file named `name`; returns its path.
    private func stateFile(of node: InviteKitNode, group: String, named name: String) async throws -> String {
        let state = root.file("\(name).group")
        let current = try await node.currentGroup(group)
        let file = VersionedEnvelope("group state file", version: 2, magic: Array("IKGS".utf8)).write(capacity: 8192) { w in
            current.serialized().withUnsafeBytes { w.writeOpaque($0) }
            w.writeOpaque([UInt8]())
            w.writeOpaque(current.buffer.serialized())
        }
        _ = FileManager.default.createFile(atPath: state, contents: Data(file), attributes: [.posixPermissions: 0o600])
        return state
    }

    /// `mls <arguments> --state FILE` on `node`'s state of `group`, without the hidden flag that
    /// forges it: refused with a message naming `reason`, as the node refuses it.
    private func honestlyRefused(_ cli: CLIProcesses, from node: InviteKitNode, group: String, _ arguments: [String], reason: String) async throws {
        let state = try await stateFile(of: node, group: group, named: "honest")
        let (p, out) = try cli.start(["mls"] + arguments + ["--state", state])
        p.waitUntilExit(); out.waitForEnd()
        XCTAssertNotEqual(p.terminationStatus, 0, out.text)
        XCTAssertTrue(out.text.contains(reason), out.text)
    }

    /// Runs `mls <arguments> --state FILE` on `node`'s state of `group` and returns the kind-445
    /// event it printed: a Commit the node itself would not build, for the others to refuse.
    private func forge(_ cli: CLIProcesses, from node: InviteKitNode, named name: String, group: String, _ arguments: [String]) async throws -> NostrEvent {
        let state = try await stateFile(of: node, group: group, named: name)
        let (p, out) = try cli.start(["mls"] + arguments + ["--state", state])
        p.waitUntilExit(); out.waitForEnd()
        XCTAssertEqual(p.terminationStatus, 0, out.text)
        let line = try XCTUnwrap(out.text.split(separator: "\n").first.map(String.init))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let eventJSON = try JSONSerialization.data(withJSONObject: try XCTUnwrap(json["event"]))
        return try NostrEvent(json: String(decoding: eventJSON, as: UTF8.self))
    }

    private func publish(_ event: NostrEvent) async {
        let pool = RelayPool(urls: [relay.url])
        _ = await pool.publish(event, timeout: .seconds(10))
        await pool.close()
    }

    /// `log` holds a `commitRefused` of `commit` in `group` with `code`.
    private func refusal(of commit: NostrEvent, in group: String, _ code: InviteKitError.Code, in log: EventLog) async -> Bool {
        await log.events.contains { if case .commitRefused(group, commit.id, let e) = $0 { return e.code == code } else { return false } }
    }

    /// A Commit to a disbanded group is refused on receipt: the one member left (the disbander)
    /// refuses even one its own leaf signed, forged with `invitekit mls rename
    /// --skip-lifecycle-rule` from its own state, and stays disbanded.
    func testACommitToADisbandedGroupIsRefusedOnReceipt() async throws {
        let cli = try CLIProcesses()
        let (ada, bob, cy, group, runs) = try await club(.current)
        defer { for r in runs { r.cancel() } }
        _ = (bob, cy)
        let (adaLog, adaTask) = await log(ada)
        defer { adaTask.cancel() }
        _ = try await ada.waitForCommit(try await ada.disbandGroup(group), timeout: .seconds(30))

        try await honestlyRefused(cli, from: ada, group: group, ["rename", "--name", "revived"], reason: "disbanded")
        let forged = try await forge(cli, from: ada, named: "ada", group: group, ["rename", "--name", "revived", "--skip-lifecycle-rule"])
        await publish(forged)
        let refusedByAda = try await waitFor { await self.refusal(of: forged, in: group, .groupDisbanded, in: adaLog) }
        XCTAssertTrue(refusedByAda, "the disbanded group refuses the Commit")
        let after = try await ada.group(group)
        XCTAssertTrue(after.isDisbanded)
        XCTAssertEqual(after.name, "club")
    }

    /// Cy, no admin, runs `mls <arguments>` on her state: refused without `--skip-admin-rule`;
    /// with it, the forged Commit goes to the relay and Ada and Bob both report it refused with
    /// `not_permitted`. Returns the club, still running.
    private func nonAdminForgeryIsRefused(_ arguments: [String]) async throws -> (InviteKitNode, InviteKitNode, String, [Task<Void, any Error>]) {
        let cli = try CLIProcesses()
        let (ada, bob, cy, group, runs) = try await club(.current)
        let (adaLog, adaTask) = await log(ada), (bobLog, bobTask) = await log(bob)
        defer { adaTask.cancel(); bobTask.cancel() }
        try await honestlyRefused(cli, from: cy, group: group, arguments, reason: "admin")
        let forged = try await forge(cli, from: cy, named: "cy", group: group, arguments + ["--skip-admin-rule"])
        await publish(forged)
        let refusedEverywhere = try await waitFor {
            let a = await self.refusal(of: forged, in: group, .notPermitted, in: adaLog)
            let b = await self.refusal(of: forged, in: group, .notPermitted, in: bobLog)
            return a && b
        }
        XCTAssertTrue(refusedEverywhere, "Ada and Bob report the forged Commit refused")
        return (ada, bob, group, runs)
    }

    /// A non-admin's retention Commit (component 0x8005) forged with `invitekit mls retention
    /// --skip-admin-rule` from Cy's state: Ada and Bob refuse it and keep no retention.
    func testAForgedNonAdminRetentionCommitIsRefusedOnReceipt() async throws {
        let (ada, bob, group, runs) = try await nonAdminForgeryIsRefused(["retention", "--seconds", "60"])
        defer { for r in runs { r.cancel() } }
        for n in [ada, bob] { let retention = try await n.messageRetention(of: group); XCTAssertNil(retention) }
        // An admin's retention goes through.
        _ = try await ada.waitForCommit(try await ada.setMessageRetention(60, groupID: group), timeout: .seconds(30))
        let set = try await waitFor { try await bob.messageRetention(of: group) == 60 }
        XCTAssertTrue(set)
    }

    /// A non-admin's rename forged with `invitekit mls rename --skip-admin-rule` from Cy's own
    /// group state, published to the group's relay: Ada and Bob refuse it with a typed event and
    /// keep the name.
    func testAForgedNonAdminCommitIsRefusedOnReceipt() async throws {
        let (ada, bob, group, runs) = try await nonAdminForgeryIsRefused(["rename", "--name", "pwned"])
        defer { for r in runs { r.cancel() } }
        for n in [ada, bob] { let name = try await n.group(group).name; XCTAssertEqual(name, "club") }
        // The group goes on: Ada's next change is built on the epoch the forgery did not move.
        _ = try await ada.waitForCommit(try await ada.renameGroup(group, to: "still ours"), timeout: .seconds(30))
        let moved = try await waitFor { try await bob.group(group).name == "still ours" }
        XCTAssertTrue(moved)
    }

    /// Read marks, mute and pin are this home's own: they round-trip, survive reopening the home,
    /// and the unread count follows messages from others, not the reactions, edits and deletions
    /// that annotate them.
    func testReadStateMuteAndPinRoundTripAndPersist() async throws {
        let (ada, bob, cy, group, runs) = try await club(.current)
        _ = cy
        for i in 0..<3 { _ = try await ada.send("m\(i)", to: group) }
        let arrived = try await waitFor { try await bob.history(of: group).count == 3 }
        XCTAssertTrue(arrived)
        var state = try await bob.readState(of: group)
        XCTAssertEqual(state.unreadCount, 3)
        XCTAssertFalse(state.muted); XCTAssertFalse(state.pinned)
        let sent = try await ada.history(of: group)
        _ = try await ada.react("👍", to: sent[0].eventID, in: group)
        _ = try await ada.edit(sent[1].eventID, newText: "m1, edited", in: group)
        _ = try await ada.delete(sent[2].eventID, in: group)
        let annotated = try await waitFor { try await bob.history(of: group).count == 6 }
        XCTAssertTrue(annotated, "the reaction, the edit and the deletion arrived")
        state = try await bob.readState(of: group)
        XCTAssertEqual(state.unreadCount, 3, "a reaction, an edit or a deletion is no unread message")
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
