import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr

/// One scenario client: a Nostr identity, its KeyPackages, its Marmot groups (by the scenario's
/// group label) and what it has observed since its events were last cleared. Groups run on
/// InviteKit's engine (``MarmotGroup``); a restart round-trips every group through its stored
/// bytes, as the node's store does.
struct ConformanceClient {
    /// An own commit between "built" and "acknowledged by the transport".
    struct Outbound {
        let id: Int
        let publication: String?
        let group: String
        let pending: MarmotPendingCommit<MLSGroupState>
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

    let name: String
    let key: Secp256k1.PrivateKey
    let rng: SeededRandom
    let store = MemoryKeyPackageStore()
    var groups: [String: MarmotGroup<MLSGroupState>] = [:]
    /// Group events that named no group this client is in yet (it may join later).
    var unrouted: [ConformanceMessage] = []
    var outbound: [Outbound] = []
    var window = Window()

    init(name: String) {
        self.name = name
        rng = SeededRandom(seed: Array("invitekit-conformance/\(name)".utf8))
        key = Self.scenarioKey(name)
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

    /// A fresh current-profile KeyPackage event, its bundle kept in this client's store.
    func freshKeyPackage(now: Int64) throws -> NostrEvent {
        let (event, bundle) = try KeyPackageEvent.create(nostrKey: key, relays: [ConformanceRunner.relay], lastResort: false,
                                                         profile: .current, now: now, rng: rng)
        try store.save(bundle)
        return event
    }

    func label(ofGroupID id: [UInt8]) -> String? {
        groups.first { $0.value.nostrGroupID == id }?.key
    }

    /// Drops everything held only in memory and reads every group back from its stored bytes
    /// (state and buffer), as a process restart does.
    mutating func restart() throws {
        for (label, g) in groups {
            var reread = try MarmotGroup<MLSGroupState>(serialized: g.serialized())
            reread.buffer = try MarmotEventBuffer(serialized: g.buffer.serialized())
            groups[label] = reread
        }
    }
}
