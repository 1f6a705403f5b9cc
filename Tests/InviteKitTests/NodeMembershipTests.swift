import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit

/// Membership Commits of the node over the in-memory relay: two join requests for one group in
/// one catch-up (the second waits until the first Commit is acknowledged), a member's
/// self-update, a leave request the admin commits, and a removal queued before a restart and
/// applied after it. At most one Commit per group is in flight.
final class NodeMembershipTests: XCTestCase {
    private let homes = NodeHomes()

    override func tearDown() { homes.remove() }

    /// Every kind-445 event of the group from the relay, in MIP-03 order, through the node.
    private func sync(_ node: InviteKitNode, _ nostrGroupID: String) async throws {
        let events = await RelayPool([homes.relay]).fetch([NostrFilter(kinds: [445]).tag("h", [nostrGroupID])], timeout: .seconds(5)).events
        for e in events.sorted(by: { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }) { try await node.handleGroupEvent(e) }
    }

    private func members(_ node: InviteKitNode, _ group: String) async throws -> (Set<[UInt8]>, UInt64) {
        let (m, epoch) = try await node.members(groupID: group)
        return (Set(m.map(\.publicKey.rawRepresentation)), epoch)
    }

    func testConcurrentJoinsSelfUpdateLeaveAndRemoveAcrossARestart() async throws {
        let pool = RelayPool([homes.relay])
        var ada: InviteKitNode! = try homes.node("ada", seed: 1)
        let dee = try homes.node("dee", seed: 2)
        let fay = try homes.node("fay", seed: 3)
        let group = try await ada.createHostedGroup(name: "club")
        let id = group.conversationID
        let url = try await ada.createInvite(groupID: id, singleUse: false, expiresIn: 3600).url

        // Two requests in one catch-up: one Commit in flight, the other request waits for it.
        for joiner in [dee, fay] {
            _ = try await joiner.startJoin(invite: url)
            try await joiner.flushOutbound(to: [homes.relay])
        }
        let first = try await ada.catchUp(pool: pool)
        XCTAssertEqual(first.filter { if case .accepted = $0 { return true } else { return false } }.count, 1)
        XCTAssertEqual(first.filter { if case .ignored(.commitPending) = $0 { return true } else { return false } }.count, 1)
        try await ada.flushOutbound(to: [homes.relay])
        let second = try await ada.catchUp(pool: pool)
        XCTAssertEqual(second.count, 1)
        guard case .accepted = second.first else { return XCTFail("the waiting request: \(second)") }
        try await ada.flushOutbound(to: [homes.relay])
        for joiner in [dee, fay] {
            _ = try await joiner.catchUp(pool: pool)
            try await sync(joiner, group.nostrGroupID)
        }
        let all = Set([ada!.publicKey, dee.publicKey, fay.publicKey].map(\.rawRepresentation))
        for n in [ada!, dee, fay] {
            let (m, epoch) = try await members(n, id)
            XCTAssertEqual(m, all)
            XCTAssertEqual(epoch, 2)
        }

        // A member's self-update: applied by dee after the OK, by the others from the relay.
        let update = try await dee.selfUpdate(groupID: id)
        do {
            _ = try await dee.selfUpdate(groupID: id)
            XCTFail("a second Commit while one is in flight")
        } catch {
            XCTAssertEqual(error.code, .commitPending)
        }
        try await dee.flushOutbound(to: [homes.relay])
        XCTAssertEqual(try dee.store.read { tx in try tx.pendingCommits.get(commitEventID: update)?.status }, .confirmed)
        for n in [ada!, fay] { try await sync(n, group.nostrGroupID) }
        for n in [ada!, dee, fay] { let (_, epoch) = try await members(n, id); XCTAssertEqual(epoch, 3) }

        // fay asks to leave; ada's node commits it when the request arrives.
        _ = try await fay.leaveGroup(groupID: id)
        try await fay.flushOutbound(to: [homes.relay])
        try await sync(ada, group.nostrGroupID)
        try await ada.flushOutbound(to: [homes.relay])
        let afterLeave = all.subtracting([fay.publicKey.rawRepresentation])
        let adaAfterLeave = try await members(ada, id).0
        XCTAssertEqual(adaAfterLeave, afterLeave)
        try await sync(dee, group.nostrGroupID)
        let deeAfterLeave = try await members(dee, id).0
        XCTAssertEqual(deeAfterLeave, afterLeave)

        // A removal queued, then a restart before any relay saw it: the row brings it back.
        let remove = try await ada.removeMember(dee.publicKey, groupID: id)
        let beforeOK = try await members(ada, id).0
        XCTAssertEqual(beforeOK, afterLeave, "nothing is applied before the OK")
        await ada.shutdown()
        ada = nil
        ada = try homes.node("ada", seed: 7, initialize: false)
        try await ada.flushOutbound(to: [homes.relay])
        XCTAssertEqual(try ada.store.read { tx in try tx.pendingCommits.get(commitEventID: remove)?.status }, .confirmed)
        let (left, epoch) = try await members(ada, id)
        XCTAssertEqual(left, [ada.publicKey.rawRepresentation])
        XCTAssertEqual(epoch, 5)
        let row = try await ada.groupRow(id)
        XCTAssertEqual(row.epoch, 5, "the stored row moved with the Commit")
        try await sync(dee, group.nostrGroupID)
        let deeMessage = try? await dee.sendMessage(text: "still here?", groupID: id)
        XCTAssertNil(deeMessage, "a removed member cannot send")
    }

    func testAJoinWhoseCommitNoRelayStoresIsAnsweredAndLeavesTheInviteUnused() async throws {
        let pool = RelayPool([homes.relay])
        let ada = try homes.node("ada", seed: 1), dee = try homes.node("dee", seed: 2)
        let group = try await ada.createHostedGroup(name: "club")
        let url = try await ada.createInvite(groupID: group.conversationID, singleUse: true, expiresIn: 3600).url
        await homes.relay.setPolicy { $0.kind == 445 ? .reject("blocked: no group events here") : .accept }

        _ = try await dee.startJoin(invite: url)
        try await dee.flushOutbound(to: [homes.relay])
        let decided = try await ada.catchUp(pool: pool)
        guard case .accepted(let pending)? = decided.first else { return XCTFail("\(decided)") }
        try await ada.flushOutbound(to: [homes.relay])
        XCTAssertEqual(try ada.store.read { tx in try tx.pendingCommits.get(commitEventID: pending.event.id)?.status }, .rolledBack)
        let members = try await ada.members(groupID: group.conversationID)
        XCTAssertEqual(members.epoch, 0, "nothing applied")
        _ = try await dee.catchUp(pool: pool)
        let failed = try dee.store.read { tx in try tx.pendingJoins.all() }
        XCTAssertEqual(failed.map(\.state), [.failed])
        XCTAssertEqual(failed.first?.errorType, InviteJoinError.ErrorType.genericFailure.rawValue)

        // The single-use invite was not used up: the same invite works once the relay takes commits.
        await homes.relay.setPolicy { _ in .accept }
        _ = try await dee.startJoin(invite: url)
        try await dee.flushOutbound(to: [homes.relay])
        _ = try await ada.catchUp(pool: pool)
        try await ada.flushOutbound(to: [homes.relay])
        _ = try await dee.catchUp(pool: pool)
        XCTAssertEqual(try dee.store.read { tx in try tx.pendingJoins.all() }.map(\.state).sorted { $0.rawValue < $1.rawValue }, [.failed, .joined])
    }

    func testRemoveRefusalsAreTyped() async throws {
        let ada = try homes.node("ada", seed: 1)
        let group = try await ada.createHostedGroup(name: "club")
        do {
            _ = try await ada.removeMember(ada.publicKey, groupID: group.conversationID)
            XCTFail("an admin removing itself")
        } catch {
            XCTAssertEqual(error.underlyingCode, "remove_self_use_leave")
        }
        let stranger = try Secp256k1.PrivateKey(rawRepresentation: [UInt8](repeating: 7, count: 32)).publicKey
        do {
            _ = try await ada.removeMember(stranger, groupID: group.conversationID)
            XCTFail("removing a stranger")
        } catch {
            XCTAssertEqual(error.code, .notAMember)
        }
        XCTAssertTrue(try ada.store.read { tx in try tx.pendingCommits.waiting() }.isEmpty, "a refusal leaves no row")
    }
}
