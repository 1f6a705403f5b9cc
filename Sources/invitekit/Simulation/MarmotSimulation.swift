import Foundation
import InviteKit

/// A whole Marmot group life in memory on the RFC 9420 engine, for `invitekit mls simulate`:
/// one add per epoch through a KeyPackage event, an acknowledged commit and a gift-wrapped
/// Welcome; then a self-update by a non-admin and `removals` admin removals. After each epoch
/// every member must hold the same epoch authenticator, every member must read the admin's
/// message, and no removed member may.
enum MarmotSimulation {
    typealias Group = MarmotGroup<MLSGroupState>

    struct EpochFact {
        let epoch: UInt64
        /// `create`, `add`, `self_update`, `remove`.
        let action: String
        let members: Int
        /// Bytes of the kind-445 content of the commit (0 for `create`).
        let commitBytes: Int
        let welcomes: Int
        let converged: Bool
        /// First 8 bytes of the epoch authenticator (RFC 9420 §8.7), hex.
        let fingerprint: String
        let messageReaders: Int
        let removedReaders: Int
        let commitMillis: Double
    }

    private struct Member {
        let key: Secp256k1.PrivateKey
        var group: Group
    }

    /// The simulation's clock (2027-01-15).
    static let fixedNow: Int64 = 1_800_000_000

    /// Runs the simulation and hands each epoch's facts to `emit` as soon as they are known, so
    /// memory does not grow with the number of epochs and output streams.
    static func run(members count: Int, removals: Int, seed: UInt64, emit: (EpochFact) throws -> Void) throws {
        let rng = SeededRandom(seed: seed)
        // A fixed clock, so a run replays from its seed (timestamps enter KeyPackage lifetimes,
        // hence the tree and every epoch's secrets).
        let now = fixedNow
        let relays = ["wss://relay.invitekit.invalid"]
        let adminKey = Secp256k1.PrivateKey(using: rng)
        let (_, adminBundle) = try KeyPackageEvent.create(nostrKey: adminKey, relays: relays, lastResort: false, now: now, rng: rng)
        var members = [Member(key: adminKey, group: try Group.create(creator: adminBundle, name: "simulation", relays: relays, rng: rng))]
        var removed: [Member] = []

        func fact(_ action: String, commitBytes: Int, welcomes: Int, millis: Double) throws {
            let authenticators = Set(members.map { $0.group.state.epochAuthenticator })
            let message = try members[0].group.message(EventTemplate(kind: MarmotProfile.chatMessageKind, content: "epoch \(members[0].group.epoch)", createdAt: now), now: now, rng: rng)
            var readers = 0
            for i in members.indices.dropFirst() {
                if members[i].group.receive(event: message, now: now).contains(where: { if case .message = $0 { true } else { false } }) { readers += 1 }
            }
            var removedReaders = 0
            for i in removed.indices {
                if removed[i].group.receive(event: message, now: now).contains(where: { if case .message = $0 { true } else { false } }) { removedReaders += 1 }
            }
            try emit(EpochFact(epoch: members[0].group.epoch, action: action, members: members.count, commitBytes: commitBytes, welcomes: welcomes,
                                   converged: authenticators.count == 1, fingerprint: Hex.encode(Array(members[0].group.state.epochAuthenticator.prefix(8))),
                                   messageReaders: readers, removedReaders: removedReaders, commitMillis: millis))
        }

        /// `committer` commits, a relay "acknowledges", everyone else processes the event.
        func commit(by committer: Int, _ build: (Group) throws -> MarmotPendingCommit<MLSGroupState>) throws -> (bytes: Int, wraps: [NostrEvent], millis: Double) {
            let start = ContinuousClock.now
            let pending = try build(members[committer].group)
            let millis = Double((ContinuousClock.now - start).components.attoseconds) / 1e15 + Double((ContinuousClock.now - start).components.seconds) * 1000
            let wraps = try members[committer].group.confirmPublished(pending, acknowledgedBy: relays, wrappingWelcomesFrom: members[committer].key, now: now, rng: rng)
            for i in members.indices where i != committer { _ = members[i].group.receive(event: pending.event, now: now) }
            for i in removed.indices { _ = removed[i].group.receive(event: pending.event, now: now) }
            return (pending.event.content.utf8.count, wraps, millis)
        }

        try fact("create", commitBytes: 0, welcomes: 0, millis: 0)
        for _ in 1..<max(1, count) {
            let key = Secp256k1.PrivateKey(using: rng)
            let store = MemoryKeyPackageStore()
            let (event, bundle) = try KeyPackageEvent.create(nostrKey: key, relays: relays, lastResort: false, now: now, rng: rng)
            try store.save(bundle)
            let package = try KeyPackageValidator.validate(event, now: now)
            let (bytes, wraps, millis) = try commit(by: 0) { try $0.commit(adding: [package], now: now, rng: rng) }
            members.append(Member(key: key, group: try Group.join(giftWrap: wraps[0], recipient: key, store: store)))
            try fact("add", commitBytes: bytes, welcomes: wraps.count, millis: millis)
        }
        if members.count >= 2 {
            let (bytes, _, millis) = try commit(by: 1) { try $0.selfUpdate(now: now, rng: rng) }
            try fact("self_update", commitBytes: bytes, welcomes: 0, millis: millis)
        }
        for _ in 0..<removals where members.count > 2 {
            let target = members[members.count - 1].key.publicKey.rawRepresentation
            let (bytes, _, millis) = try commit(by: 0) { try $0.commit(removing: [target], now: now, rng: rng) }
            removed.append(members.removeLast())
            try fact("remove", commitBytes: bytes, welcomes: 0, millis: millis)
        }
    }
}
