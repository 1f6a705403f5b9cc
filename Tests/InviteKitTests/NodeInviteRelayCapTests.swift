import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit

/// D5 (issue 31): an invite names at most `InvitePayload.maxRelays` relays (PROTOCOL §3.2). A
/// joiner refuses one naming 400 before it records a join (whose relays its runtime would
/// connect to), and a node's own invite for a group with more relays names the first eight.
final class NodeInviteRelayCapTests: XCTestCase {
    private let homes = NodeHomes()
    override func tearDown() { homes.remove() }

    func testAJoinerRefusesAnInviteNamingFourHundredRelays() async throws {
        let ada = try homes.node("ada", seed: 1)
        let dee = try homes.node("dee", seed: 2)
        let group = try await ada.createHostedGroup(name: "club")
        let relays = (0..<400).map { "wss://r\($0).attacker.example" }
        let payload = InvitePayload(conversationToken: try ConversationToken.seal(conversationID: group.conversationID, creatorKey: await ada.signingKey,
                                                                                  creatorId: ConversationToken.creatorId(for: await ada.signingKey.publicKey)),
                                    creatorInboxId: await ada.signingKey.publicKey.rawRepresentation, tag: group.currentTag, relays: relays)
        let url = try SignedInvite.sign(payload, with: await ada.signingKey).url()
        do {
            _ = try await dee.startJoin(invite: url)
            XCTFail("a 400-relay invite was accepted")
        } catch {
            XCTAssertEqual(error.code, .inviteInvalid)
            XCTAssertEqual(error.underlyingCode, "too_many_relays")
        }
        XCTAssertEqual(try dee.store.read { tx in try tx.pendingJoins.all() }.count, 0)
    }

    func testANodeInviteNamesTheFirstEightOfItsGroupsRelays() async throws {
        let ada = try homes.node("ada", seed: 1)
        let relays = (0..<12).map { String(format: "wss://r%02d.example", $0) }
        let group = try await ada.createGroup(name: "wide", relays: relays)
        let stored = try await ada.createInvite(groupID: group.id, singleUse: false, expiresIn: 3600)
        guard case .signed(let invite) = try AnyInvite(parsing: stored.url) else { return XCTFail("not a signed invite") }
        XCTAssertEqual(invite.payload.relays.count, InvitePayload.maxRelays)
        XCTAssertEqual(Set(invite.payload.relays).count, InvitePayload.maxRelays)
        XCTAssertTrue(Set(invite.payload.relays).isSubset(of: Set(relays)))
    }
}
