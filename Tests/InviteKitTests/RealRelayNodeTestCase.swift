import XCTest
import Foundation
import InviteKitRelay
import InviteKitTestSupport
@testable import InviteKit

/// A test case whose nodes run over the real nostr-relay on loopback (`scripts/relay`): one relay
/// process per test, each node's home under the test's temporary root. Invite codes name
/// `wss://` relays only (PROTOCOL §5.14.3), so the name ``codeRelay`` is taken to the loopback
/// relay by every connection the nodes and the test open.
class RealRelayNodeTestCase: XCTestCase {
    private(set) var relay: RelayProcess!
    let root = TemporaryDirectory(prefix: "invitekit-real-relay")
    static let codeRelay = "wss://links.invitekit.test"

    override func setUpWithError() throws {
        try super.setUpWithError()
        try RelayProcess.requireRelay()
        relay = try RelayProcess()
        try relay.start()
    }

    override func tearDown() {
        relay?.tearDown()
        super.tearDown()
    }

    /// A connection to `url`, ``codeRelay`` being the loopback relay.
    func connection(_ url: String) -> any NostrRelayConnection {
        WebSocketRelayClient(url: url == Self.codeRelay ? relay.url : url)
    }

    /// `name`'s node on the loopback relay, its identity created first unless `initialize` is
    /// false (a restart). `clock` is the node's Unix time (the wall clock by default).
    func node(_ name: String, seed: UInt64, initialize: Bool = true, idleInterval: Duration = .milliseconds(100),
              clock: @escaping @Sendable () -> Int64 = { UnixTime.now() }) throws -> InviteKitNode {
        let home = StoreHome(directory: root.file(name))
        if initialize { try InviteKitNode.initialize(home: home, relays: [relay.url], rng: SeededRandom(seed: seed)) }
        let loopback = relay.url, code = Self.codeRelay
        let configuration = InviteKitNode.Configuration(relayTimeout: .seconds(10), idleInterval: idleInterval, keyPackageLowWater: 0,
                                                        connector: { WebSocketRelayClient(url: $0 == code ? loopback : $0) })
        return try InviteKitNode(home: home, configuration: configuration, clock: clock)
    }

    /// Polls `condition` every 100 ms for at most `seconds` (``Poll/awaiting(timeout:every:_:)``).
    func waitFor(_ seconds: Double = 30, _ condition: () async throws -> Bool) async throws -> Bool {
        try await Poll.awaiting(timeout: .seconds(seconds), every: .milliseconds(100), condition)
    }
}
