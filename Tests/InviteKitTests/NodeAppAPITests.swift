import XCTest
import Foundation
import InviteKitRelay
import InviteKitTestSupport
@testable import InviteKit

/// What issue 30 asked of the node's API, through ``InviteKitNode/run()`` and the in-memory
/// relay: typed join outcomes that name their group, invites that say whether they were used,
/// one key type, the public waits, membership changes that queue behind a Commit in flight, and
/// no eviction reports for history from before a join.
final class NodeAppAPITests: XCTestCase {
    private let homes = NodeHomes()

    override func tearDown() { homes.remove() }

    private func running(_ nodes: [InviteKitNode]) -> [Task<Void, any Error>] {
        nodes.map { node in Task { try await node.run() } }
    }

    /// Nodes named `names` (seeds 1, 2, …), all running; the first hosts a group with a reusable
    /// invite, which the others have joined.
    private func club(_ names: [String]) async throws -> (nodes: [InviteKitNode], runners: [Task<Void, any Error>], group: NodeGroup) {
        let nodes = try names.enumerated().map { try homes.node($0.element, seed: UInt64($0.offset + 1)) }
        let runners = running(nodes)
        let group = try await nodes[0].createGroup(name: "club")
        let invite = try await nodes[0].createInvite(groupID: group.id, singleUse: false, expiresIn: 3600)
        for joiner in nodes.dropFirst() { _ = try await joiner.join(invite.url, timeout: .seconds(30)) }
        return (nodes, runners, group)
    }

    /// A used-up single-use invite: the refusal is `.rejected(.singleUseConsumed)` for its
    /// group, and the invite reports `used`; a multi-use one reports `reusable`.
    func testJoinOutcomesAreTypedAndInvitesReportTheirUse() async throws {
        let ada = try homes.node("ada", seed: 1)
        let bob = try homes.node("bob", seed: 2)
        let cat = try homes.node("cat", seed: 3)
        let runners = running([ada, bob, cat])
        defer { runners.forEach { $0.cancel() } }
        let decisions = ada.events()
        let group = try await ada.createGroup(name: "club")
        let once = try await ada.createInvite(groupID: group.id, singleUse: true, expiresIn: 3600)
        let many = try await ada.createInvite(groupID: group.id, singleUse: false, expiresIn: 3600)
        var use = try await ada.inviteUse(once.id)
        XCTAssertEqual(use, .unused)
        use = try await ada.inviteUse(many.id)
        XCTAssertEqual(use, .reusable)

        _ = try await bob.join(once.url, timeout: .seconds(30))
        use = try await ada.inviteUse(once.id)
        XCTAssertEqual(use, .used)
        do {
            _ = try await cat.join(once.url, timeout: .seconds(30))
            XCTFail("a used single-use invite admitted a second joiner")
        } catch {
            XCTAssertEqual(error.code, .inviteAlreadyUsed)
        }
        var outcomes: [(String?, JoinRequestOutcome)] = []
        for await e in decisions {
            if case .joinRequestDecided(_, let g, let outcome) = e { outcomes.append((g, outcome)) }
            if outcomes.count == 2 { break }
        }
        XCTAssertEqual(outcomes.map(\.1), [.accepted, .rejected(.singleUseConsumed)])
        XCTAssertEqual(outcomes.map(\.0), [group.id, group.id], "the refusal names the group asked for")
        XCTAssertEqual(outcomes.last?.1.description, "rejected:single_use_consumed")
        do {
            _ = try await ada.inviteUse("no such invite")
            XCTFail("an unknown invite has a use")
        } catch {
            XCTAssertEqual(error.underlyingCode, "invite_not_found")
        }
    }

    /// `waitForJoin` with an id no join has: `not_found`, not "Only an admin can do that".
    func testWaitingForAnUnknownJoinIsNotFound() async throws {
        let bob = try homes.node("bob", seed: 2)
        do {
            _ = try await bob.waitForJoin("00", timeout: .seconds(1))
            XCTFail("waited for a join that does not exist")
        } catch {
            XCTAssertEqual(error.code, .notFound)
            XCTAssertEqual(error.underlyingCode, "join_not_found")
        }
        do {
            try await bob.waitForDelivery(of: "00", timeout: .seconds(1))
            XCTFail("waited for a message that does not exist")
        } catch {
            XCTAssertEqual(error.underlyingCode, "message_not_found")
        }
        do {
            _ = try await bob.waitForCommit("00", timeout: .seconds(1))
            XCTFail("waited for a Commit that does not exist")
        } catch {
            XCTAssertEqual(error.underlyingCode, "commit_not_found")
        }
    }

    /// A delivery and two membership changes made back to back: the second waits for the first
    /// Commit's `OK` instead of failing `commit_pending`, and the waits return once each is
    /// applied. Member keys are `Secp256k1.XOnlyPublicKey` in the calls and the events.
    func testWaitsAndMembershipChangesQueueBehindACommitInFlight() async throws {
        let (nodes, runners, group) = try await club(["ada", "bob", "cat"])
        defer { runners.forEach { $0.cancel() } }
        let (ada, bob, cat) = (nodes[0], nodes[1], nodes[2])

        let sent = try await ada.send("hello", to: group.id)
        try await ada.waitForDelivery(of: sent, timeout: .seconds(30))
        try await ada.waitForDelivery(of: sent, timeout: .seconds(1))  // already delivered: at once

        let changes = ada.events()
        let update = try await ada.selfUpdate(groupID: group.id)
        // Built only after the self-update's OK: one Commit per group in flight.
        let removal = try await ada.removeMember(bob.publicKey, groupID: group.id)
        let afterUpdate = try await ada.waitForCommit(update, timeout: .seconds(30))
        let afterRemoval = try await ada.waitForCommit(removal, timeout: .seconds(30))
        XCTAssertEqual(afterRemoval.epoch, afterUpdate.epoch + 1)
        let members = try await ada.members(of: group.id).members.map(\.publicKey)
        XCTAssertEqual(Set(members), [ada.publicKey, cat.publicKey])
        var removed: [Secp256k1.XOnlyPublicKey] = []
        // `commitConfirmed`, then the member changes it made.
        for await e in changes {
            if case .memberRemoved(let g, let member) = e, g == group.id { removed.append(member); break }
        }
        XCTAssertEqual(removed, [bob.publicKey])
    }

    /// Without ``InviteKitNode/run()`` nothing resolves a pending Commit: a second change says so.
    func testAChangeWithoutRunDoesNotWaitForever() async throws {
        let ada = try homes.node("ada", seed: 1)
        let group = try await ada.createGroup(name: "club")
        _ = try await ada.selfUpdate(groupID: group.id)
        do {
            _ = try await ada.selfUpdate(groupID: group.id)
            XCTFail("a second Commit while one is in flight")
        } catch {
            XCTAssertEqual(error.code, .commitPending)
        }
    }

    /// A relay that stores nothing and never answers a publish: an own Commit stays in flight.
    private struct UnansweringRelay: NostrRelayConnection {
        let inner: InMemoryRelay
        var url: String { inner.url }
        func publish(_ event: NostrEvent, timeout: Duration) async -> PublishOutcome {
            try? await Task.sleep(for: timeout)
            return .timedOut(wasSent: true)
        }
        func subscribe(_ filters: [NostrFilter]) async throws(RelayError) -> RelaySubscription { try await inner.subscribe(filters) }
        func close() async {}
    }

    /// With ``InviteKitNode/run()`` running but the relay silent, a change waiting for the group's
    /// Commit slot gives up after `commitSlotTimeout`, `timed_out` (`commit_slot_busy`), having
    /// built nothing: the Commit in flight is still the only one.
    func testAChangeWaitingForABusySlotGivesUpAfterTheSlotTimeout() async throws {
        let ada = try homes.node("ada", seed: 1)
        let group = try await ada.createGroup(name: "club")
        await ada.shutdown()
        let inner = homes.relay
        let now = homes.now
        let silent = try InviteKitNode(home: homes.home("ada"), configuration: InviteKitNode.Configuration(
            relayTimeout: .milliseconds(200), idleInterval: .milliseconds(50), keyPackageLowWater: 0,
            commitSlotTimeout: .milliseconds(600), connector: { _ in UnansweringRelay(inner: inner) }), clock: { now })
        let runner = Task { try await silent.run() }
        defer { runner.cancel() }
        let inFlight = try await silent.selfUpdate(groupID: group.id)
        let started = ContinuousClock.now
        do {
            _ = try await silent.selfUpdate(groupID: group.id)
            XCTFail("a second Commit was built while the first is in flight")
        } catch {
            XCTAssertEqual(error.code, .timedOut)
            XCTAssertEqual(error.underlyingCode, "commit_slot_busy")
        }
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, .milliseconds(600))
        let waiting = try silent.store.read { tx in try tx.pendingCommits.waiting() }
        XCTAssertEqual(waiting.map(\.commitEventID), [inFlight], "the refused change queued nothing")
    }

    /// Junk the joiner's catch-up holds from before it joined (no key of its opens it) goes out of
    /// its full buffer without a report; the same junk dated after the join is reported.
    func testHistoryFromBeforeTheJoinIsNotReportedAsEvicted() async throws {
        let (nodes, runners, group) = try await club(["ada", "dee"])
        let dee = nodes[1]
        runners.forEach { $0.cancel() }
        for r in runners { _ = await r.result }

        let rng = SeededRandom(seed: 446)
        let extra = 10
        func junk(at time: Int64) -> [NostrEvent] {
            (0..<(MarmotProfile.bufferedEventLimit + extra)).map { _ in
                TestEvents.junkGroupEvent(nostrGroupID: group.nostrGroupID, bytes: 100, rng: rng, createdAt: time)
            }
        }
        let reports = dee.events()
        let heldBefore = await dee.registry[group.id]!.group.buffer.count
        let old = junk(at: homes.now - 600)
        for e in old { try await dee.handleGroupEvent(e) }
        try await dee.saveDirtyBuffers()
        let held = await dee.registry[group.id]!.group.buffer.events.map(\.id)
        XCTAssertEqual(held, old.suffix(MarmotProfile.bufferedEventLimit).map(\.id), "the old junk was buffered and overflowed")
        for e in junk(at: homes.now) { try await dee.handleGroupEvent(e) }
        try await dee.saveDirtyBuffers()
        await dee.shutdown()
        var evicted: [Int] = []
        for await e in reports { if case .bufferedEventsEvicted(let id, let n) = e, id == group.id { evicted.append(n) } }
        // What the buffer held before is reported as it goes; the old junk (all of it goes) is
        // not; of the new junk, its first `extra` go.
        XCTAssertEqual(evicted, (heldBefore > 0 ? [heldBefore] : []) + [extra])
    }
}
