import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit
import InviteKitStore

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

    /// A Welcome held for its acknowledged Add (PROTOCOL §5.13, "Welcome hold") is still held
    /// after a restart, the hold restored from the store, and is released once the Add settles
    /// on the selected branch; the Add stays `confirmed`.
    func testAHeldWelcomeOutlivesARestart() async throws {
        let now: Int64 = 1_700_000_000
        let home = StoreHome(directory: directory.file("home"))
        try InviteKitNode.initialize(home: home, relays: ["ws://relay.test"], rng: SeededRandom(seed: 1))
        var node: InviteKitNode? = try InviteKitNode(home: home, clock: { now }, rng: SeededRandom(seed: 2))
        let group = try await node!.createHostedGroup(name: "book club")
        let url = try await node!.createInvite(groupID: group.conversationID, singleUse: true, expiresIn: 3600).url
        let dee = try joinRequest(url: url, key: Secp256k1.PrivateKey(using: SeededRandom(seed: 10)), now: now)
        guard case .accepted(let pending) = try await node!.handleGiftWrap(dee) else { return XCTFail("not accepted") }
        try await node!.eventSent(pending.event.id, relay: "ws://relay.test")
        try await node!.relayAnswered(pending.event.id, relay: "ws://relay.test", accepted: true, message: "")
        let heldBefore = try node!.store.read { tx in try tx.outbound.heldCommits() }
        XCTAssertEqual(heldBefore, [pending.event.id])

        await node!.shutdown()
        node = nil
        let restarted = try InviteKitNode(home: home, clock: { now }, rng: SeededRandom(seed: 4))
        let restored = await restarted.welcomeHolds.keys.sorted()
        XCTAssertEqual(restored, [pending.event.id], "the hold comes back from the store")
        let stillHeld = try await restarted.dueOutbound().filter { $0.purpose == "welcome" }
        XCTAssertEqual(stillHeld.count, 0)
        _ = try await restarted.settleWelcomeHolds()
        let due = try await restarted.dueOutbound().filter { $0.purpose == "welcome" }
        XCTAssertEqual(due.count, 1, "released: the selected branch holds the Add")
        let (held, status) = try restarted.store.read { tx in
            (try tx.outbound.heldCommits(), try tx.pendingCommits.get(commitEventID: pending.event.id)?.status)
        }
        XCTAssertEqual(held, [])
        XCTAssertEqual(status, PendingCommitRecord.Status.confirmed)
    }
}
