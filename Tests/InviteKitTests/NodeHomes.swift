import Foundation
import InviteKitCrypto
import InviteKitTestSupport
@testable import InviteKit

/// Nodes of one test, each with its own home under a temporary root, over one in-memory relay
/// and a fixed clock. The homes go with the value (``remove()`` from tearDown ends them sooner).
final class NodeHomes: @unchecked Sendable {
    private(set) var root: TemporaryDirectory? = TemporaryDirectory(prefix: "invitekit-nodes")
    /// The nodes' fixed clock, read from the wall clock on first use: XCTest makes every test
    /// case (and so this object) when the run starts, long before a late test runs, and events a
    /// test dates by the wall clock must not be far ahead of its nodes' clock.
    var now: Int64 { start.withLock { t in if t == nil { t = UnixTime.now() }; return t! } }
    private let start = LockedBox<Int64?>(nil)
    let relay = InMemoryRelay(url: "wss://in-memory.invitekit.test")

    func home(_ name: String) -> StoreHome { StoreHome(directory: root!.file(name)) }

    /// Opens `name`'s node, creating its identity first unless `initialize` is false (a restart).
    func node(_ name: String, seed: UInt64, initialize: Bool = true) throws -> InviteKitNode {
        if initialize { try InviteKitNode.initialize(home: home(name), relays: [relay.url], rng: SeededRandom(seed: seed)) }
        let now = self.now
        return try InviteKitNode(home: home(name), configuration: runtime, clock: { now }, rng: SeededRandom(seed: seed + 100))
    }

    /// Nodes whose ``InviteKitNode/run()`` reaches this test's in-memory relay.
    var runtime: InviteKitNode.Configuration {
        let relay = self.relay
        return InviteKitNode.Configuration(relayTimeout: .seconds(5), idleInterval: .milliseconds(100), connector: { _ in relay })
    }

    func remove() { root = nil }
}
