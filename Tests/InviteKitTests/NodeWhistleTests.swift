import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit

/// Whistle invites through the node over the in-memory relay (PROTOCOL §8.3 rule 5): ada makes a
/// Whistle code, dee joins with it, ada's node stores the request as waiting (it survives a
/// restart), the admin approves it through the one Commit path, and dee joins when the Welcome
/// arrives. Refusals are typed: a Whistle code with single use or expiry, an approval nobody
/// asked for, a second approval, an approval while another Commit is in flight.
final class NodeWhistleTests: XCTestCase {
    private let homes = NodeHomes()

    override func tearDown() { homes.remove() }

    private func refusal(_ underlying: String, _ body: () async throws -> Void, file: StaticString = #filePath, line: UInt = #line) async {
        do {
            try await body()
            XCTFail("expected \(underlying)", file: file, line: line)
        } catch let e as InviteKitError {
            XCTAssertEqual(e.underlyingCode, underlying, file: file, line: line)
        } catch {
            XCTFail("untyped \(error)", file: file, line: line)
        }
    }

    func testWhistleInviteWaitsForApprovalAcrossARestartThenJoins() async throws {
        let pool = RelayPool([homes.relay])
        var ada: InviteKitNode! = try homes.node("ada", seed: 1)
        let dee = try homes.node("dee", seed: 2)
        let fay = try homes.node("fay", seed: 3)
        let group = try await ada.createHostedGroup(name: "club")
        let id = group.conversationID

        // The code names the group's relay, ada and the group's Nostr id; recorded as `whistle`.
        let invite = try await ada.createInvite(groupID: id, format: .whistle, singleUse: false, expiresIn: nil)
        XCTAssertTrue(invite.url.hasPrefix("whistle://invite/"), invite.url)
        let code = try InviteCode(url: invite.url)
        XCTAssertEqual(code.relay, homes.relay.url)
        XCTAssertEqual(code.inviterKey, ada.publicKey)
        XCTAssertEqual(code.groupId, group.nostrGroupID)
        let row = try ada.store.read { tx in try tx.invites.get(id: "whistle:" + group.nostrGroupID) }
        XCTAssertEqual(row?.format, .whistle)
        XCTAssertEqual(row?.url, invite.url)

        // dee and fay ask; ada's node stores both requests and commits nothing.
        let deeJoin = try await dee.startJoin(invite: invite.url)
        XCTAssertNil(deeJoin.inviteTag)
        XCTAssertEqual(deeJoin.inviter, ada.publicKey.rawRepresentation)
        XCTAssertEqual(deeJoin.relays, [homes.relay.url])
        try await dee.flushOutbound(to: [homes.relay])
        _ = try await fay.startJoin(invite: invite.url)
        try await fay.flushOutbound(to: [homes.relay])
        let adaEvents = ada.events()
        let decisions = try await ada.catchUp(pool: pool)
        XCTAssertEqual(decisions.count, 2)
        XCTAssertTrue(decisions.allSatisfy { if case .needsApproval = $0 { return true } else { return false } }, "\(decisions)")
        XCTAssertTrue(try ada.store.read { tx in try tx.pendingCommits.waiting() }.isEmpty, "nothing is committed before approval")
        let waiting = try await ada.pendingApprovals(groupID: id)
        XCTAssertEqual(Set(waiting.map(\.joiner)), [dee.publicKey.rawRepresentation, fay.publicKey.rawRepresentation])
        for a in waiting {
            XCTAssertEqual(try ada.store.read { tx in try tx.processedRequests.get(rumorID: a.requestID)?.outcome }, "needs_approval")
        }
        await ada.shutdown()
        var asked: [Secp256k1.XOnlyPublicKey] = []
        for await event in adaEvents { if case .approvalRequested(let g, let m, _) = event, g == id { asked.append(m) } }
        XCTAssertEqual(Set(asked), [dee.publicKey, fay.publicKey])

        // Restart: the requests are still listed (also without the lock), and not decided again.
        ada = nil
        ada = try homes.node("ada", seed: 7, initialize: false)
        let afterRestart = try await ada.pendingApprovals(groupID: id)
        XCTAssertEqual(afterRestart.map(\.requestID), waiting.map(\.requestID))
        XCTAssertEqual(try InviteKitNode.storedApprovals(home: homes.home("ada"), group: id).count, 2)
        let again = try await ada.catchUp(pool: pool)
        XCTAssertTrue(again.isEmpty, "\(again)")

        // Hostile: a key that never asked.
        let stranger = Secp256k1.PrivateKey(using: SeededRandom(seed: 99)).publicKey
        await refusal("no_pending_approval") { _ = try await ada.approveJoin(member: stranger, groupID: id) }
        await refusal("no_pending_approval") { _ = try await ada.declineJoin(member: stranger, groupID: id) }

        // Approve dee: one Commit; fay waits behind it (one Commit per group in flight).
        let commit = try await ada.approveJoin(member: dee.publicKey, groupID: id)
        await refusal("no_pending_approval") { _ = try await ada.approveJoin(member: dee.publicKey, groupID: id) }
        await refusal("commit_pending") { _ = try await ada.approveJoin(member: fay.publicKey, groupID: id) }
        let stillWaiting = try await ada.pendingApprovals(groupID: id).map(\.joiner)
        XCTAssertEqual(stillWaiting, [fay.publicKey.rawRepresentation])
        let approved = try ada.store.read { tx in try tx.pendingApprovals.all() }.first { $0.joiner == dee.publicKey.rawRepresentation }
        XCTAssertEqual(approved?.status, .approved)
        XCTAssertEqual(approved?.commitEventID, commit)

        try await ada.flushOutbound(to: [homes.relay])
        XCTAssertEqual(try ada.store.read { tx in try tx.pendingCommits.get(commitEventID: commit)?.status }, .confirmed)
        _ = try await dee.catchUp(pool: pool)
        let deeJoins = try dee.store.read { tx in try tx.pendingJoins.all() }
        XCTAssertEqual(deeJoins.map(\.state), [.joined])
        XCTAssertEqual(deeJoins.first?.groupID, id)
        let (members, epoch) = try await ada.members(groupID: id)
        XCTAssertEqual(Set(members.map(\.publicKey)), [ada.publicKey, dee.publicKey])
        XCTAssertEqual(epoch, 1)
        let deeEpoch = try await dee.group(id).epoch
        XCTAssertEqual(deeEpoch, 1)

        // A second approval of a member is refused; fay is declined and cannot be approved after.
        await refusal("no_pending_approval") { _ = try await ada.approveJoin(member: dee.publicKey, groupID: id) }
        let declined = try await ada.declineJoin(member: fay.publicKey, groupID: id)
        XCTAssertEqual(declined, 1)
        await refusal("no_pending_approval") { _ = try await ada.approveJoin(member: fay.publicKey, groupID: id) }
        let left = try await ada.pendingApprovals(groupID: id)
        XCTAssertTrue(left.isEmpty)
    }

    func testWhistleCannotBeSingleUseOrExpire() async throws {
        let ada = try homes.node("ada", seed: 1)
        let group = try await ada.createHostedGroup(name: "club")
        await refusal("whistle_no_single_use") {
            _ = try await ada.createInvite(groupID: group.conversationID, format: .whistle, singleUse: true, expiresIn: nil)
        }
        await refusal("whistle_no_expiry") {
            _ = try await ada.createInvite(groupID: group.conversationID, format: .whistle, singleUse: false, expiresIn: 60)
        }
        XCTAssertTrue(try ada.store.read { tx in try tx.invites.forGroup(group.conversationID) }.isEmpty, "a refusal records nothing")
        // A signed invite through the same call still works.
        let signed = try await ada.createInvite(groupID: group.conversationID, format: .signed, singleUse: true, expiresIn: 60)
        XCTAssertEqual(signed.format, .signed)
    }

    func testAMalformedWhistleCodeIsRefusedBeforeAnythingIsSent() throws {
        var client = JoinClient(key: Secp256k1.PrivateKey(using: SeededRandom(seed: 5)), keyPackages: MemoryKeyPackageStore())
        XCTAssertThrowsError(try client.start(invite: "whistle://invite/not-base64!")) { error in
            XCTAssertEqual((error as? InviteKitError)?.code, .inviteInvalid)
        }
    }
}
