import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit
import InviteKitStore

/// Two nodes over the in-memory relay: the joiner node's join ends in `joined`, a second joiner
/// node using the same single-use invite gets `joinRefused` with the raw error and its mapped code.
final class NodeJoinerTests: XCTestCase {
    func testJoinerNodesJoinOnceAndTheSecondIsRefused() async throws {
        let root = TemporaryDirectory(prefix: "invitekit-nodes")
        let now = UnixTime.now()
        let relay = InMemoryRelay(url: "wss://in-memory.invitekit.test")
        let pool = RelayPool([relay])
        func node(_ name: String, seed: UInt64) throws -> InviteKitNode {
            let home = StoreHome(directory: root.file(name))
            try InviteKitNode.initialize(home: home, relays: [relay.url], rng: SeededRandom(seed: seed))
            return try InviteKitNode(home: home, clock: { now }, rng: SeededRandom(seed: seed + 100))
        }
        let ada = try node("ada", seed: 1)
        let dee = try node("dee", seed: 2)
        let eve = try node("eve", seed: 3)
        let eveEvents = eve.events()
        let group = try await ada.createHostedGroup(name: "club")
        let adaKey = try IdentityKeyFile.read(from: ada.home.identityKeyPath).withUnsafeBytes { try Secp256k1.PrivateKey(rawRepresentation: $0) }
        let url = try SignedInvite.create(conversationID: group.conversationID, creator: adaKey,
                                          options: InviteOptions(relays: [relay.url], expiresAtUnix: now + 3600, conversationExpiresAtUnix: nil,
                                                                 singleUse: true, tag: group.currentTag),
                                          using: SeededRandom(seed: 9)).url()

        _ = try await dee.startJoin(invite: url)
        try await dee.flushOutbound(to: [relay])
        _ = try await ada.catchUp(pool: pool)
        try await ada.flushOutbound(to: [relay])
        _ = try await dee.catchUp(pool: pool)
        let deeJoins = try dee.store.read { tx in try tx.pendingJoins.all() }
        XCTAssertEqual(deeJoins.map(\.state), [.joined])
        XCTAssertEqual(deeJoins.first?.groupID, group.conversationID)

        _ = try await eve.startJoin(invite: url)
        try await eve.flushOutbound(to: [relay])
        _ = try await ada.catchUp(pool: pool)
        try await ada.flushOutbound(to: [relay])
        _ = try await eve.catchUp(pool: pool)
        let eveJoins = try eve.store.read { tx in try tx.pendingJoins.all() }
        XCTAssertEqual(eveJoins.map(\.state), [.failed])
        XCTAssertEqual(eveJoins.first?.errorType, InviteJoinError.ErrorType.singleUseConsumed.rawValue)
        await eve.shutdown()
        var failures: [InviteJoinError] = []
        var mapped: [InviteKitError] = []
        for await event in eveEvents {
            if case .joinRefused(_, let e, let error) = event { failures.append(e); mapped.append(error) }
        }
        XCTAssertEqual(mapped.map(\.code), [.inviteAlreadyUsed])
        XCTAssertEqual(failures.map(\.errorType), [.singleUseConsumed])
        XCTAssertEqual(failures.first?.userFacingMessage, InviteJoinError.ErrorType.singleUseConsumed.userFacingMessage)
    }
}
