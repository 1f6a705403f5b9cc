import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit

/// ``InviteKitNode/run()`` over the in-memory relay, through the public API only: joins,
/// per-invite single use, revocation, and the event fan-out.
final class NodeRuntimeTests: XCTestCase {
    private let homes = NodeHomes()

    override func tearDown() { homes.remove() }

    private func running(_ nodes: [InviteKitNode]) -> [Task<Void, any Error>] {
        nodes.map { node in Task { try await node.run() } }
    }

    /// Three single-use invites of one group: each admits one joiner; a fourth joiner on a used
    /// one is refused `single_use_consumed`; after revocation the unused ones are refused too.
    func testSingleUseIsPerInviteAndRevocationEndsEveryInvite() async throws {
        let ada = try homes.node("ada", seed: 1)
        let joiners = try (2...6).map { try homes.node("j\($0)", seed: UInt64($0)) }
        let runners = running([ada] + joiners)
        defer { runners.forEach { $0.cancel() } }
        let group = try await ada.createGroup(name: "club")
        var invites: [StoredInvite] = []
        for _ in 0..<5 { invites.append(try await ada.createInvite(groupID: group.id, singleUse: true, expiresIn: 3600)) }
        XCTAssertEqual(Set(invites.map(\.id)).count, 5)
        XCTAssertEqual(Set(invites.map(\.tag)).count, 1, "every invite of the group carries its one tag")

        for (joiner, invite) in zip(joiners.prefix(3), invites) {
            let joined = try await joiner.join(invite.url, timeout: .seconds(30))
            XCTAssertEqual(joined.id, group.id)
            XCTAssertEqual(joined.role, .member)
        }
        do {
            _ = try await joiners[3].join(invites[1].url, timeout: .seconds(30))
            XCTFail("a used single-use invite admitted a second joiner")
        } catch {
            XCTAssertEqual(error.code, .inviteAlreadyUsed)
            XCTAssertEqual(error.underlyingCode, "single_use_consumed")
        }
        try await ada.revokeInvites(groupID: group.id)
        do {
            _ = try await joiners[4].join(invites[4].url, timeout: .seconds(30))
            XCTFail("a revoked invite admitted a joiner")
        } catch {
            XCTAssertEqual(error.code, .conversationExpired)
        }
        let (members, epoch) = try await ada.members(of: group.id)
        XCTAssertEqual(members.count, 4)
        XCTAssertEqual(epoch, 3)
        let recorded = try await ada.invites(of: group.id)
        XCTAssertEqual(recorded.count, 5)
    }

    /// Every subscriber sees every event, in the same order.
    func testTwoSubscribersSeeTheSameSequence() async throws {
        let ada = try homes.node("ada", seed: 1)
        let first = ada.events(), second = ada.events()
        let group = try await ada.createGroup(name: "club")
        for text in ["one", "two", "three"] { try await ada.send(text, to: group.id) }
        do {
            _ = try await ada.leaveGroup(groupID: group.id)
            XCTFail("the last admin left its own group")
        } catch {
            XCTAssertEqual(error.code, .lastAdmin, "PROTOCOL §5.16: the last admin names a successor first")
        }
        await ada.shutdown()
        var a: [String] = [], b: [String] = []
        for await e in first { a.append("\(e)") }
        for await e in second { b.append("\(e)") }
        XCTAssertEqual(a.count, 3)
        XCTAssertEqual(a, b)
        let late = ada.events()
        var after = 0
        for await _ in late { after += 1 }
        XCTAssertEqual(after, 0, "a stream made after shutdown is finished")
    }
}
