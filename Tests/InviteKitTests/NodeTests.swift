import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit

/// The node actor over a real on-disk store: durable join decisions across a restart, one
/// consumption per single-use invite, no Welcome before the Commit's `OK`.
final class NodeTests: XCTestCase {
    private var directory: String!

    override func setUp() {
        directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("invitekit-node-\(UUID().uuidString)")
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    private func joinRequest(url: String, key: Secp256k1.PrivateKey, now: Int64) throws -> NostrEvent {
        var client = JoinClient(key: key, keyPackages: MemoryKeyPackageStore(), rng: SeededRandom(seed: 5))
        let out = try XCTUnwrap(client.start(invite: url, now: now))
        return out.joinRequest
    }

    func testDecisionsAreDurableAcrossARestartAndSingleUseIsConsumedOnce() async throws {
        let now: Int64 = 1_700_000_000
        let home = StoreHome(directory: directory)
        try InviteKitNode.initialize(home: home, relays: ["ws://relay.test"], rng: SeededRandom(seed: 1))
        var node: InviteKitNode? = try InviteKitNode(home: home, clock: { now }, rng: SeededRandom(seed: 2))
        XCTAssertThrowsError(try InviteKitNode(home: home)) { XCTAssertEqual(($0 as? StoreError)?.code, .locked) }

        let group = try await node!.createGroup(name: "book club")
        let inviter = try XCTUnwrap(try SecureBytes(copying: [UInt8](Data(contentsOf: URL(fileURLWithPath: home.identityKeyPath)))).withUnsafeBytes {
            try Secp256k1.PrivateKey(rawRepresentation: $0)
        })
        let options = InviteOptions(relays: ["ws://relay.test"], expiresAtUnix: now + 3600, conversationExpiresAtUnix: nil,
                                    singleUse: true, tag: group.currentTag)
        let url = try SignedInvite.create(conversationId: group.conversationID, creator: inviter, options: options, using: SeededRandom(seed: 3)).url()

        let dee = try joinRequest(url: url, key: Secp256k1.PrivateKey(using: SeededRandom(seed: 10)), now: now)
        guard case .accepted(let pending) = try await node!.handleGiftWrap(dee) else { return XCTFail("not accepted") }
        guard case .ignored(.duplicate) = try await node!.handleGiftWrap(dee) else { return XCTFail("second decision") }

        // The Welcome is queued only once the Commit is acknowledged, and gated on it.
        let first = try await node!.dueOutbound().map(\.eventID)
        XCTAssertEqual(first, [pending.commitEvent.id])
        try await node!.eventSent(pending.commitEvent.id, relay: "ws://relay.test")
        try await node!.relayAnswered(pending.commitEvent.id, relay: "ws://relay.test", accepted: true, message: "")
        let due = try await node!.dueOutbound()
        XCTAssertEqual(due.count, 1)
        XCTAssertEqual(due.first?.purpose, "welcome")
        XCTAssertEqual(due.first?.gateEventID, pending.commitEvent.id)

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

/// Inviter node and a joiner over the in-memory relay: the join completes through the durable
/// outbound queue, and a restarted node's catch-up of the same wraps sends nothing again.
final class NodeRelayTests: XCTestCase {
    func testJoinOverTheRelayThenRestartSendsNothingTwice() async throws {
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("invitekit-node-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let now = UnixTime.now()
        let relay = InMemoryRelay(url: "wss://in-memory.invitekit.test")
        let pool = RelayPool([relay])
        let home = StoreHome(directory: directory)
        try InviteKitNode.initialize(home: home, relays: [relay.url], rng: SeededRandom(seed: 1))
        var node: InviteKitNode? = try InviteKitNode(home: home, clock: { now }, rng: SeededRandom(seed: 2))
        let group = try await node!.createGroup(name: "club")
        let inviterKey = try IdentityKeyFile.read(from: home.identityKeyPath).withUnsafeBytes { try Secp256k1.PrivateKey(rawRepresentation: $0) }
        let url = try SignedInvite.create(conversationId: group.conversationID, creator: inviterKey,
                                          options: InviteOptions(relays: [relay.url], expiresAtUnix: now + 3600, conversationExpiresAtUnix: nil,
                                                                 singleUse: true, tag: group.currentTag),
                                          using: SeededRandom(seed: 3)).url()

        let deeKey = Secp256k1.PrivateKey(using: SeededRandom(seed: 20))
        var dee = JoinClient(key: deeKey, keyPackages: MemoryKeyPackageStore(), rng: SeededRandom(seed: 21))
        let out = try XCTUnwrap(dee.start(invite: url, now: now))
        for e in [out.keyPackageEvent, out.joinRequest] {
            let outcome = await relay.publish(e, timeout: .seconds(5))
            XCTAssertTrue(outcome.isAccepted)
        }

        let decisions = try await node!.catchUp(pool: pool)
        XCTAssertEqual(decisions.count, 1)
        let writes = try await node!.flushOutbound(to: [relay])
        XCTAssertEqual(writes, 2, "the Commit, then the Welcome it released")

        let wraps = await pool.fetch([GiftWrapCatchUp.filter(for: deeKey.publicKey)], timeout: .seconds(5)).events
        dee.catchUp(GiftWrap.unwrapBatch(wraps, recipient: deeKey))
        guard case .joined = dee.state else { return XCTFail("dee: \(dee.state)") }

        await node!.shutdown()
        node = nil
        let restarted = try InviteKitNode(home: home, clock: { now }, rng: SeededRandom(seed: 4))
        let again = try await restarted.catchUp(pool: pool)
        XCTAssertTrue(again.isEmpty, "no decision is made twice")
        let resent = try await restarted.flushOutbound(to: [relay])
        XCTAssertEqual(resent, 0, "nothing is sent twice")
    }
}
