import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit
import InviteKitStore

/// Inviter node and a joiner over the in-memory relay: the join completes through the durable
/// outbound queue, and a restarted node's catch-up of the same wraps sends nothing again.
final class NodeRelayTests: XCTestCase {
    func testJoinOverTheRelayThenRestartSendsNothingTwice() async throws {
        let directory = TemporaryDirectory(prefix: "invitekit-node")
        let now = UnixTime.now()
        let relay = InMemoryRelay(url: "wss://in-memory.invitekit.test")
        let pool = RelayPool([relay])
        let home = StoreHome(directory: directory.file("home"))
        try InviteKitNode.initialize(home: home, relays: [relay.url], rng: SeededRandom(seed: 1))
        var node: InviteKitNode? = try InviteKitNode(home: home, clock: { now }, rng: SeededRandom(seed: 2))
        let group = try await node!.createHostedGroup(name: "club")
        let inviterKey = try IdentityKeyFile.read(from: home.identityKeyPath).withUnsafeBytes { try Secp256k1.PrivateKey(rawRepresentation: $0) }
        let url = try SignedInvite.create(conversationID: group.conversationID, creator: inviterKey,
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
        XCTAssertEqual(writes, 4, "the relay lists init queued (PROTOCOL §5.12.6), the Commit, then the Welcome it released")

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
