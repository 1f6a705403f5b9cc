import XCTest
import Foundation
import InviteKitCrypto
import InviteKitRelay
import InviteKitTestSupport
@testable import InviteKit

/// ``InviteKitNode/prepareConnections(to:)``: a connection opened before ``InviteKitNode/run()``
/// is the one run() writes to (the connector is not asked again), and one run() never took is
/// closed by ``InviteKitNode/shutdown()``.
final class NodePreparedConnectionsTests: XCTestCase {
    private let homes = NodeHomes()

    override func tearDown() { homes.remove() }

    /// The test relay, counting what the node asks of it.
    private actor CountingRelay: NostrRelayConnection {
        let inner: InMemoryRelay
        private(set) var prepared = 0
        private(set) var closed = 0
        nonisolated var url: String { inner.url }
        init(_ inner: InMemoryRelay) { self.inner = inner }
        func publish(_ event: NostrEvent, timeout: Duration) async -> PublishOutcome { await inner.publish(event, timeout: timeout) }
        func subscribe(_ filters: [NostrFilter]) async throws(RelayError) -> RelaySubscription { try await inner.subscribe(filters) }
        func close() async { closed += 1 }
        func prepare() async { prepared += 1 }
    }

    private func node(connector: @escaping @Sendable (String) -> any NostrRelayConnection) throws -> InviteKitNode {
        try InviteKitNode.initialize(home: homes.home("ada"), relays: [homes.relay.url], rng: SeededRandom(seed: 1))
        let now = homes.now
        return try InviteKitNode(home: homes.home("ada"), configuration: InviteKitNode.Configuration(
            relayTimeout: .seconds(5), idleInterval: .milliseconds(50), keyPackageLowWater: 0, connector: connector), clock: { now })
    }

    func testRunWritesThroughThePreparedConnection() async throws {
        let made = LockedBox<[CountingRelay]>([])
        let relay = homes.relay
        let ada = try node { _ in let c = CountingRelay(relay); made.withLock { $0.append(c) }; return c }
        let group = try await ada.createGroup(name: "club")
        await ada.prepareConnections(to: group.relays)
        await ada.prepareConnections(to: group.relays)
        XCTAssertEqual(made.withLock { $0.count }, 1, "one connection per relay, however often it is prepared")
        let prepared = try XCTUnwrap(made.withLock { $0.first })
        let events = ada.events()
        let id = try await ada.send("hello", to: group.id)
        let runner = Task { try await ada.run() }
        defer { runner.cancel() }
        for await e in events { if case .messageDelivered(_, let delivered) = e, delivered == id { break } }
        XCTAssertEqual(made.withLock { $0.count }, 1, "run() took the prepared connection instead of making another")
        let (opened, stored) = (await prepared.prepared, await relay.storedEvents.map(\.id))
        XCTAssertEqual(opened, 1)
        XCTAssertTrue(stored.contains(id))
    }

    func testShutdownClosesAConnectionRunNeverTook() async throws {
        let made = LockedBox<[CountingRelay]>([])
        let relay = homes.relay
        let ada = try node { _ in let c = CountingRelay(relay); made.withLock { $0.append(c) }; return c }
        await ada.prepareConnections(to: ["wss://unused.invitekit.test"])
        let prepared = try XCTUnwrap(made.withLock { $0.first })
        await ada.shutdown()
        let deadline = ContinuousClock.now + .seconds(5)
        while await prepared.closed == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        let closed = await prepared.closed
        XCTAssertEqual(closed, 1)
    }
}
