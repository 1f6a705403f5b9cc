import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit

/// The node actor over a real on-disk store: durable join decisions across a restart, one
/// consumption per single-use invite, no Welcome before the Commit's `OK`.
final class NodeTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUp() {
        directory = TemporaryDirectory(prefix: "invitekit-node")
    }

    override func tearDown() { directory = nil }

    private func joinRequest(url: String, key: Secp256k1.PrivateKey, now: Int64) throws -> NostrEvent {
        var client = JoinClient(key: key, keyPackages: MemoryKeyPackageStore(), rng: SeededRandom(seed: 5))
        let out = try XCTUnwrap(client.start(invite: url, now: now))
        return out.joinRequest
    }

    func testDecisionsAreDurableAcrossARestartAndSingleUseIsConsumedOnce() async throws {
        let now: Int64 = 1_700_000_000
        let home = StoreHome(directory: directory.file("home"))
        try InviteKitNode.initialize(home: home, relays: ["ws://relay.test"], rng: SeededRandom(seed: 1))
        var node: InviteKitNode? = try InviteKitNode(home: home, clock: { now }, rng: SeededRandom(seed: 2))
        XCTAssertThrowsError(try InviteKitNode(home: home)) { XCTAssertEqual(($0 as? InviteKitError)?.code, .storeLocked) }

        let group = try await node!.createHostedGroup(name: "book club")
        let inviter = try XCTUnwrap(try SecureBytes(copying: [UInt8](Data(contentsOf: URL(fileURLWithPath: home.identityKeyPath)))).withUnsafeBytes {
            try Secp256k1.PrivateKey(rawRepresentation: $0)
        })
        let options = InviteOptions(relays: ["ws://relay.test"], expiresAtUnix: now + 3600, conversationExpiresAtUnix: nil,
                                    singleUse: true, tag: group.currentTag)
        let url = try SignedInvite.create(conversationID: group.conversationID, creator: inviter, options: options, using: SeededRandom(seed: 3)).url()

        let dee = try joinRequest(url: url, key: Secp256k1.PrivateKey(using: SeededRandom(seed: 10)), now: now)
        guard case .accepted(let pending) = try await node!.handleGiftWrap(dee) else { return XCTFail("not accepted") }
        guard case .ignored(.duplicate) = try await node!.handleGiftWrap(dee) else { return XCTFail("second decision") }

        // The Welcome is queued only once the Commit is acknowledged, and gated on it.
        let first = try await node!.dueOutbound().map(\.eventID)
        XCTAssertEqual(first, [pending.event.id])
        try await node!.eventSent(pending.event.id, relay: "ws://relay.test")
        try await node!.relayAnswered(pending.event.id, relay: "ws://relay.test", accepted: true, message: "")
        // Held until the Add settles on the selected branch (PROTOCOL §5.13, "Welcome hold"):
        // with no run loop, the next flush settles it at once.
        let held = try await node!.dueOutbound()
        XCTAssertEqual(held.map(\.eventID), [])
        _ = try await node!.settleWelcomeHolds()
        let due = try await node!.dueOutbound()
        XCTAssertEqual(due.count, 1)
        XCTAssertEqual(due.first?.purpose, "welcome")
        XCTAssertEqual(due.first?.gateEventID, pending.event.id)

        // A second joiner with the same single-use invite gets exactly one refusal.
        let eve = try joinRequest(url: url, key: Secp256k1.PrivateKey(using: SeededRandom(seed: 11)), now: now)
        guard case .rejected(_, let error) = try await node!.handleGiftWrap(eve) else { return XCTFail("not rejected") }
        XCTAssertEqual(error.errorType, .singleUseConsumed)

        // Restart: the same wraps again (catch-up has no `since`) get no second reply.
        await node!.shutdown()
        node = nil
        let restarted = try InviteKitNode(home: home, clock: { now }, rng: SeededRandom(seed: 4))
        guard case .ignored(.duplicate) = try await restarted.handleGiftWrap(dee) else { return XCTFail("redecided after restart") }
        guard case .ignored(.duplicate) = try await restarted.handleGiftWrap(eve) else { return XCTFail("replied twice after restart") }
        let replies = try restarted.store.read { tx in try tx.outbound.due(now: now + 1) }.filter { $0.purpose == "join_error" }
        XCTAssertEqual(replies.count, 1)
    }
}
