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
        key = Secp256k1.PrivateKey(using: rng)
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
