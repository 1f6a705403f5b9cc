import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit

/// The node's report of a convergence decision (PROTOCOL §5.13): a member that applied the
/// losing commit of a fork first and then receives the winner emits `branchReplaced`, then the
/// membership difference, and ends where a member that saw the winner alone is.
final class NodeConvergenceTests: XCTestCase {
    private let homes = NodeHomes()

    override func tearDown() { homes.remove() }

    private func sync(_ node: InviteKitNode, _ nostrGroupID: String) async throws {
        let events = await RelayPool([homes.relay]).fetch([NostrFilter(kinds: [445]).tag("h", [nostrGroupID])], timeout: .seconds(5)).events
        for e in events.sorted(by: { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }) { try await node.handleGroupEvent(e) }
    }

    func testAReplacedBranchIsReportedWithTheMembershipItChanged() async throws {
        let pool = RelayPool([homes.relay])
        let ada = try homes.node("ada", seed: 1), dee = try homes.node("dee", seed: 2), fay = try homes.node("fay", seed: 3)
        let gus = try homes.node("gus", seed: 4)
        let group = try await ada.createHostedGroup(name: "club")
        let id = group.conversationID
        let url = try await ada.createInvite(groupID: id, singleUse: false, expiresIn: 3600).url
        for joiner in [dee, fay, gus] {
            _ = try await joiner.startJoin(invite: url)
            try await joiner.flushOutbound(to: [homes.relay])
            _ = try await ada.catchUp(pool: pool)
            try await ada.flushOutbound(to: [homes.relay])
        }
        for joiner in [dee, fay, gus] {
            _ = try await joiner.catchUp(pool: pool)
            try await sync(joiner, group.nostrGroupID)
        }
        // Dee becomes an admin too.
        var data = try await ada.currentGroup(id).groupData
        data.admins.append(dee.publicKey.rawRepresentation)
        let promote = try await ada.currentGroup(id).commit(groupData: data, now: homes.now, rng: SeededRandom(seed: 5))
        _ = try await ada.submit(.change(groupID: id, commit: promote), relays: [homes.relay.url])
        try await ada.flushOutbound(to: [homes.relay])
        for n in [dee, fay] { try await sync(n, group.nostrGroupID) }
        let epoch = try await fay.currentGroup(id).epoch

        // In one epoch: the lower key renames, the higher key removes Gus. Both are privileged,
        // so the committer rule picks the rename; Fay applies the removal first.
        let adaIsLower = ada.publicKey.rawRepresentation.lexicographicallyPrecedes(dee.publicKey.rawRepresentation)
        let (low, high) = adaIsLower ? (ada, dee) : (dee, ada)
        var d = try await low.currentGroup(id).groupData
        d.name = "renamed"
        let winner = try await low.currentGroup(id).commit(groupData: d, now: homes.now, rng: SeededRandom(seed: 6))
        let loser = try await high.currentGroup(id).commit(removing: [gus.publicKey.rawRepresentation], now: homes.now, rng: SeededRandom(seed: 7))

        let events = fay.events()
        try await fay.handleGroupEvent(loser.event)
        try await fay.handleGroupEvent(winner.event)
        var seen: [NodeEvent] = []
        for await e in events {
            seen.append(e)
            if case .memberAdded = e { break }
        }
        XCTAssertEqual(seen.map(\.description).filter { !$0.hasPrefix("message") }.count, 3, "\(seen)")
        guard case .memberRemoved(_, let removed)? = seen.first, removed == gus.publicKey else { return XCTFail("\(seen)") }
        guard case .memberAdded(_, let back)? = seen.last, back == gus.publicKey else { return XCTFail("\(seen)") }
        guard case let .branchReplaced(groupID, fork, now)? = seen.dropLast().last else { return XCTFail("\(seen)") }
        XCTAssertEqual(groupID, id)
        XCTAssertEqual(fork, epoch)
        XCTAssertEqual(now, epoch + 1)
        let name = try await fay.currentGroup(id).groupData.name
        XCTAssertEqual(name, "renamed")
        let members = try await fay.members(of: id).members.map(\.publicKey)
        XCTAssertTrue(members.contains(gus.publicKey), "Gus is a member on the selected branch")
        // The loser arriving again changes nothing.
        try await fay.handleGroupEvent(loser.event)
        let after = try await fay.currentGroup(id).groupData.name
        XCTAssertEqual(after, name)
    }
}
