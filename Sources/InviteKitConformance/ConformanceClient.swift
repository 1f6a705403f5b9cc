import Foundation
import InviteKit
import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr
import InviteKitRelay

/// One scenario client: an ``InviteKitNode`` on its own home (a store file in the run's
/// temporary directory), its scenario key, its groups by the scenario's group label, and what it
/// has observed since its events were last cleared. The node is driven step by step through its
/// conformance seam (`InviteKitNode+Conformance.swift`): inbound events go through its handlers
/// and convergence passes, own Commits through its publish-before-apply path, and a restart
/// closes the node and opens the same home again.
final class ConformanceClient {
    /// An own Commit between "queued" and "acknowledged by the transport", with the scenario's
    /// labels for it.
    struct Outbound {
        let eventID: String
        let publication: String?
        let group: String
        let action: String
    }

    /// What the client saw since its events were last cleared (MDK's observation window).
    struct Window {
        var payloads: [String] = []
        var added: [String] = []
        var removed: [String] = []
        var epochChanges: [(from: UInt64, to: UInt64)] = []
        var messageReceived = 0
        var memberAdded = 0
        var memberRemoved = 0
        var epochChanged = 0
        var appInvalidated = 0
        var decisions: [ConvergenceDecision] = []
    }

    /// The last state of a group this client has accounted for in its window.
    private struct Seen {
        let epoch: UInt64
        let members: Set<[UInt8]>
        let decision: ConvergenceDecision?

        init(_ g: MarmotMLSGroup) {
            epoch = g.epoch
            members = Set(g.state.memberIdentities)
            decision = g.lastConvergenceDecision
        }
    }

    let name: String
    let key: Secp256k1.PrivateKey
    let rng: SeededRandom
    let home: StoreHome
    let connection: ConformanceRelayConnection
    private(set) var node: InviteKitNode
    /// Private group id by the scenario's group label.
    var groups: [String: String] = [:]
    /// Group events that named no group this client is in yet: a relay would send them in the
    /// catch-up of the feed the node opens once it joined.
    var unrouted: [ConformanceMessage] = []
    var outbound: [Outbound] = []
    var window = Window()
    /// The groups the node reported joining (``NodeEvent/joined(joinID:groupID:epoch:)``), in order.
    private(set) var joined: [String] = []
    private var events: AsyncStream<NodeEvent>.Iterator
    private var eventsRead: UInt64
    private let states: LockedBox<[(String, MarmotMLSGroup)]>
    private var seen: [String: Seen] = [:]
    private let clock: @Sendable () -> Int64
    private let passClock: @Sendable () -> ContinuousClock.Instant

    /// Creates the client's home under `directory` and opens its node.
    init(name: String, directory: String, clock: @escaping @Sendable () -> Int64,
         passClock: @escaping @Sendable () -> ContinuousClock.Instant) async throws {
        self.name = name
        let (rng, key, home) = (SeededRandom(seed: Array("invitekit-conformance/\(name)".utf8)), Self.scenarioKey(name),
                                StoreHome(directory: directory + "/" + name))
        (self.rng, self.key, self.home) = (rng, key, home)
        self.clock = clock
        self.passClock = passClock
        let (connection, states) = (ConformanceRelayConnection(), LockedBox<[(String, MarmotMLSGroup)]>([]))
        self.connection = connection
        self.states = states
        try InviteKitNode.initialize(home: home, relays: [ConformanceRunner.relay], importing: key.rawRepresentation, now: clock(), rng: rng)
        (node, events, eventsRead) = try await Self.open(home: home, connection: connection, clock: clock, passClock: passClock, rng: rng,
                                                         states: states)
    }

    /// The node configuration of every scenario client: no KeyPackage top-up or scheduled
    /// self-update (a scenario makes every Commit itself), Welcomes from any admin taken (the
    /// scenarios add by key), and a publish that got no `OK` sent again on the next flush, for
    /// as long as the scenario holds it.
    static func configuration(connection: ConformanceRelayConnection) -> InviteKitNode.Configuration {
        InviteKitNode.Configuration(retryPolicy: RetryPolicy(baseDelay: 0, maxDelay: 0, maxAttempts: 1_000_000, ackTimeout: 0),
                                    keyPackageLowWater: 0, acceptsUnsolicitedWelcomes: true, selfUpdatePolicy: nil,
                                    connector: { _ in connection })
    }

    private static func open(home: StoreHome, connection: ConformanceRelayConnection, clock: @escaping @Sendable () -> Int64,
                             passClock: @escaping @Sendable () -> ContinuousClock.Instant, rng: SeededRandom,
                             states: LockedBox<[(String, MarmotMLSGroup)]>) async throws
        -> (InviteKitNode, AsyncStream<NodeEvent>.Iterator, UInt64) {
        let node = try InviteKitNode(home: home, configuration: configuration(connection: connection), clock: clock, rng: rng)
        let read = node.conformanceEventCount
        let stream = node.events(bufferingNewest: 1 << 20)
        await node.conformanceStartStepping()
        await node.conformanceSetConvergenceClock(passClock)
        await node.conformanceObserveStates { id, group in states.withLock { $0.append((id, group)) } }
        return (node, stream.makeAsyncIterator(), read)
    }

    /// Closes the node and opens the same home again: what a process restart keeps is what the
    /// store kept. What the client observed lives in memory, so its window starts again (MDK's
    /// too).
    func restart() async throws {
        await node.conformanceStopStepping()
        await node.shutdown()
        (node, events, eventsRead) = try await Self.open(home: home, connection: connection, clock: clock, passClock: passClock, rng: rng,
                                                         states: states)
        window = Window()
    }

    /// Ends the node (the runner deletes the home).
    func close() async {
        await node.conformanceStopStepping()
        await node.shutdown()
    }

    /// The Nostr key MDK's harness gives a client label (`client.rs` at v0.9.14,
    /// `deterministic_nostr_keys`): the first `SHA-256("marmot-cgka-conformance-nostr-key-v1" ||
    /// label padded to 32 bytes || uint64 counter)` that is a valid secret. Scenarios whose
    /// committer rule decides expect these keys' order.
    static func scenarioKey(_ label: String) -> Secp256k1.PrivateKey {
        var seed = Array(label.utf8.prefix(32))
        seed += [UInt8](repeating: 0, count: 32 - seed.count)
        var counter: UInt64 = 0
        while true {
            let secret = SHA256.hash(Array("marmot-cgka-conformance-nostr-key-v1".utf8) + seed + withUnsafeBytes(of: counter.bigEndian) { Array($0) })
            if let key = try? Secp256k1.PrivateKey(rawRepresentation: secret) { return key }
            counter += 1
        }
    }

    var identity: [UInt8] { key.publicKey.rawRepresentation }

    /// The group label a private group id has here.
    func label(ofGroup id: String) -> String? { groups.first { $0.value == id }?.key }

    /// The node's engine state of the group labelled `label`.
    func group(_ label: String) async throws -> MarmotMLSGroup {
        guard let id = groups[label] else { throw ConformanceError(.stepFailed, "\(name) is in no group \(label)") }
        return try await node.conformanceGroup(id)
    }

    /// Accounts for what the node did since the last call: each group state it kept (epoch
    /// changes, members added and removed, convergence decisions, in order) and the messages it
    /// received. A group seen for the first time (created or joined) only sets the baseline;
    /// `quiet` sets it without recording (the creator's first Commit announces no changes).
    func absorb(quiet: Bool = false, people: [[UInt8]: String]) async {
        func labelOf(_ id: [UInt8]) -> String { people[id] ?? Hex.encode(id) }
        let kept = states.withLock { s in
            defer { s = [] }
            return s
        }
        var joinedNow = Set<String>()
        let total = node.conformanceEventCount
        while eventsRead < total, let e = await events.next() {
            eventsRead += 1
            switch e {
            case .messageReceived(let m) where !m.outgoing:
                window.payloads.append(m.content)
                window.messageReceived += 1
            case .joined(_, let groupID, _):
                joined.append(groupID)
                joinedNow.insert(groupID)
            default:
                break
            }
        }
        for (id, g) in kept {
            let now = Seen(g)
            // A join (also a rejoin of a group it was removed from) starts the group's baseline.
            let joinedHere = joinedNow.remove(id) != nil
            guard let before = seen[id], !joinedHere else {
                seen[id] = now
                continue
            }
            seen[id] = now
            if let d = now.decision, d != before.decision { window.decisions.append(d) }
            if quiet { continue }
            if before.epoch != now.epoch {
                window.epochChanges.append((before.epoch, now.epoch))
                window.epochChanged += 1
            }
            for m in now.members.subtracting(before.members).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                window.added.append(labelOf(m))
                window.memberAdded += 1
            }
            for m in before.members.subtracting(now.members).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                window.removed.append(labelOf(m))
                window.memberRemoved += 1
            }
        }
    }
}
