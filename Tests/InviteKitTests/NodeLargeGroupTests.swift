import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit

/// Large groups through the node (PROTOCOL §5.11) over an in-memory relay that refuses what a
/// 64 KiB relay refuses: a multi-member add split into Commits that fit, a joiner whose Welcome
/// carries its tree out of band, messages both ways, a removal, and nothing over the budget.
final class NodeLargeGroupTests: XCTestCase {
    private let homes = NodeHomes()

    override func tearDown() { homes.remove() }

    /// KeyPackage events of `count` fresh users, published to the test relay; their keys.
    private func publishedUsers(_ count: Int) async throws -> [Secp256k1.XOnlyPublicKey] {
        var keys: [Secp256k1.XOnlyPublicKey] = []
        for _ in 0..<count {
            let key = Secp256k1.PrivateKey()
            let (event, _) = try KeyPackageEvent.create(nostrKey: key, relays: [homes.relay.url], lastResort: false)
            guard case .accepted = await homes.relay.publish(event, timeout: .seconds(5)) else { throw XCTSkip("relay refused a KeyPackage") }
            keys.append(key.publicKey)
        }
        return keys
    }

    func testThreeHundredMembersJoinerMessagesAndRemovalWithin64KiB() async throws {
        await homes.relay.setPolicy { EventBudget.wireBytes($0) > 65_536 ? .reject("invalid: event too large") : .accept }
        let ada = try homes.node("ada", seed: 1)
        let bob = try homes.node("bob", seed: 2)
        let runners = [ada, bob].map { node in Task { try await node.run() } }
        defer { runners.forEach { $0.cancel() } }
        let group = try await ada.createGroup(name: "town", outOfBandTree: true)

        let users = try await publishedUsers(299)
        let added = try await ada.addMembers(users + [users[0]], to: group.id, timeout: .seconds(300))
        XCTAssertEqual(added.added.count, 299)
        XCTAssertEqual(added.skipped, [users[0]], "a key named twice is added once")
        XCTAssertGreaterThan(added.commits.count, 1, "299 KeyPackages do not fit one 64 KiB Commit")
        let adaCount = try await ada.members(of: group.id).members.count
        XCTAssertEqual(adaCount, 300)

        // A joiner through an invite: its Welcome cannot hold a 301-leaf tree, so the tree comes in chunks.
        let invite = try await ada.createInvite(groupID: group.id, singleUse: true, expiresIn: 3600)
        let joined = try await bob.join(invite.url, timeout: .seconds(120))
        XCTAssertEqual(joined.id, group.id)
        let bobCount = try await bob.members(of: group.id).members.count
        XCTAssertEqual(bobCount, 301)
        let chunks = await homes.relay.events(matching: [NostrFilter(kinds: [RatchetTreeChunks.kind])])
        XCTAssertGreaterThan(chunks.count, 1, "the joiner's tree went out of band")
        // Bob joined as the last leaf of the tree's second block: he fills it (LargeGroupFill).
        let filled = try await Poll.awaiting(timeout: .seconds(60)) { try await bob.members(of: group.id).epoch > joined.epoch }
        XCTAssertTrue(filled, "no fill self-update")

        // Messages both ways.
        let bobEvents = bob.events()
        let adaEvents = ada.events()
        try await ada.send("welcome, bob", to: group.id)
        try await bob.send("thanks, ada", to: group.id)
        let bobRead = await bobEvents.receives("welcome, bob")
        XCTAssertTrue(bobRead, "\"welcome, bob\" never arrived")
        let adaRead = await adaEvents.receives("thanks, ada")
        XCTAssertTrue(adaRead, "\"thanks, ada\" never arrived")

        // A removal reaches the joiner.
        let removedKey = users[5]
        _ = try await ada.removeMember(removedKey, groupID: group.id)
        let sawRemoval = try await Poll.awaiting(timeout: .seconds(60)) {
            try await !bob.members(of: group.id).members.contains { $0.publicKey == removedKey }
        }
        XCTAssertTrue(sawRemoval, "bob never saw the removal")
        let afterRemoval = try await bob.members(of: group.id).members.count
        XCTAssertEqual(afterRemoval, 300)

        // Nothing over the budget was offered to the relay, and it refused nothing.
        for entry in await homes.relay.log {
            XCTAssertLessThanOrEqual(EventBudget.wireBytes(entry.event), 65_536, "kind \(entry.event.kind)")
            if case .rejected(let ok) = entry.outcome { XCTFail("the relay refused kind \(entry.event.kind): \(ok.message)") }
        }
    }

    /// A message over the budget is refused before anything is queued, and the group goes on.
    func testAMessageOverTheBudgetIsTooLarge() async throws {
        let ada = try homes.node("ada", seed: 1)
        let group = try await ada.createGroup(name: "small")
        do {
            try await ada.send(String(repeating: "x", count: 70_000), to: group.id)
            XCTFail("a 70,000-byte message was queued")
        } catch {
            XCTAssertEqual(error.code, .tooLarge)
            XCTAssertEqual(error.underlyingCode, "event_too_large")
        }
        let before = try await ada.history(of: group.id)
        XCTAssertEqual(before.count, 0, "nothing half-stored")
        try await ada.send("short", to: group.id)
        let after = try await ada.history(of: group.id)
        XCTAssertEqual(after.map(\.content), ["short"])
    }
}
