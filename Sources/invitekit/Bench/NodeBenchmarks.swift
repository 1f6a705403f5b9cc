import Foundation
import InviteKit
import InviteKitCrypto
import InviteKitNostr

/// `invitekit bench --node`: figures of the path apps run, `InviteKitNode.run()` with its store
/// on disk, over an in-memory relay (so the relay's own cost stays small and the same each run).
enum NodeBenchmarks {
    struct Report {
        var floodEvents = 0
        var floodSeconds = 0.0
        var messageAfterFloodSeconds = 0.0
        var roundTripsMs: [Double] = []

        var lines: [(String, String)] {
            let sorted = roundTripsMs.sorted()
            let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
            return [("node: junk kind-445 events/s absorbed by run() (flood of \(floodEvents))", String(format: "%.0f", Double(floodEvents) / max(floodSeconds, 1e-9))),
                    ("node: real message in history after the flood, s", String(format: "%.2f", messageAfterFloodSeconds)),
                    ("node: message send → received through run(), median ms (\(sorted.count))", String(format: "%.1f", median))]
        }
    }

    static func run(flood: Int) async throws -> Report {
        let root = (NSTemporaryDirectory() as NSString).appendingPathComponent("invitekit-node-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let relay = InMemoryRelay(url: "wss://bench.invitekit.invalid")
        let config = InviteKitNode.Configuration(relayTimeout: .seconds(5), idleInterval: .milliseconds(100), keyPackageLowWater: 0,
                                                 connector: { _ in relay })
        func open(_ name: String) throws -> InviteKitNode {
            let home = StoreHome(directory: root + "/" + name)
            try InviteKitNode.initialize(home: home, relays: [relay.url])
            return try InviteKitNode(home: home, configuration: config)
        }
        let ada = try open("ada"), dee = try open("dee")
        let runners = [ada, dee].map { n in Task { try await n.run() } }
        defer { runners.forEach { $0.cancel() } }
        let group = try await ada.createGroup(name: "bench")
        let invite = try await ada.createInvite(groupID: group.id, singleUse: false, expiresIn: 3600)
        _ = try await dee.join(invite.url, timeout: .seconds(60))
        var report = Report()

        // Round trips: ada sends, dee's event stream reports it.
        for i in 0..<20 {
            let events = dee.events()
            let start = ContinuousClock.now
            _ = try await ada.send("ping \(i)", to: group.id)
            try await waitForMessage(events, "ping \(i)")
            report.roundTripsMs.append(ms(ContinuousClock.now - start))
        }

        // The flood: strangers' kind-445 events with the group's h tag, then one real message.
        // Well-formed as MIP-03 asks (base64 of a nonce, ciphertext and tag; the encoding tag),
        // so each passes every check up to the AEAD open, which fails.
        let rng = SeededRandom(seed: 445)
        let strangers = (0..<8).map { _ in Secp256k1.PrivateKey(using: rng) }
        let junk = try (0..<flood).map { i in
            try EventTemplate(kind: 445, content: Base64.encode(rng.bytes(1024)), tags: [["h", group.nostrGroupID], ["encoding", "base64"]])
                .signed(by: strangers[i % strangers.count], using: rng)
        }
        let events = dee.events()
        let start = ContinuousClock.now
        for e in junk { _ = await relay.publish(e, timeout: .seconds(5)) }
        let floodEnd = ContinuousClock.now
        _ = try await ada.send("after the flood", to: group.id)
        try await waitForMessage(events, "after the flood")
        report.floodEvents = flood
        report.floodSeconds = seconds(ContinuousClock.now - start)
        report.messageAfterFloodSeconds = seconds(ContinuousClock.now - floodEnd)
        return report
    }

    private static func waitForMessage(_ events: AsyncStream<NodeEvent>, _ text: String) async throws {
        for await e in events {
            if case .messageReceived(let m) = e, m.content == text { return }
        }
        throw CLIFailure("the node stopped before \"\(text)\" arrived")
    }

    static func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
    static func ms(_ d: Duration) -> Double { seconds(d) * 1000 }
}
