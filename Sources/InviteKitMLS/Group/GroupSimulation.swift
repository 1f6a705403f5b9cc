import InviteKitCrypto

/// Runs a whole group life in memory with replayable randomness, for `invitekit group simulate`
/// and the tests: creation, adding everyone through KeyPackages and Welcomes, a message per epoch,
/// a self-update by a non-admin, `removals` admin removals and one leave request.
public enum GroupSimulation {
    /// What one epoch looked like.
    public struct EpochFact: Sendable, Hashable {
        public let epoch: UInt64
        /// `create`, `add`, `self_update`, `remove`, `self_remove`.
        public let action: String
        public let members: Int
        /// Size of the encrypted commit content, bytes (0 for `create`).
        public let commitBytes: Int
        public let welcomes: Int
        /// Every current member derived the same epoch secret.
        public let converged: Bool
        /// First 8 bytes of the epoch fingerprint, hex.
        public let fingerprint: String
        /// Members (other than the sender) that read this epoch's test message.
        public let messageReaders: Int
        /// Removed members that could open this epoch's message (must be 0).
        public let removedReaders: Int
        /// Milliseconds the committer spent building the commit.
        public let commitMillis: Double
    }

    public static func run(members: Int, removals: Int, seed: UInt64) throws -> [EpochFact] {
        precondition(members >= 1 && removals >= 0)
        guard removals <= max(0, members - 2) else { throw GroupError(.invalidProposal, "removals must leave the admin and one member") }
        let rng = SeededRandom(seed: seed)
        let adminID = rng.bytes(32)
        var sessions: [[UInt8]: GroupSession] = [adminID: GroupSession(state: try GroupState.create(identity: adminID, rng: rng))]
        var order: [[UInt8]] = [adminID]
        var removed: [GroupSession] = []
        var facts: [EpochFact] = []
        var clock: Int64 = 1_700_000_000

        func snapshot(_ action: String, commitBytes: Int, welcomes: Int, millis: Double) throws {
            let active = order.compactMap { sessions[$0] }
            let fps = Set(active.map(\.state.epochFingerprint))
            let sender = active[active.count > 1 ? 1 : 0]
            let msg = try sender.encryptApplication(Array("epoch \(sender.state.epoch)".utf8), rng: rng)
            var readers = 0
            for id in order where id != sender.state.ownIdentity {
                if sessions[id]!.state.decrypt(msg) != nil { readers += 1 }
            }
            let removedReaders = removed.filter { $0.state.decrypt(msg) != nil }.count
            facts.append(EpochFact(epoch: sessions[adminID]!.state.epoch, action: action, members: active.count, commitBytes: commitBytes,
                                   welcomes: welcomes, converged: fps.count == 1,
                                   fingerprint: Hex.encode(sessions[adminID]!.state.epochFingerprint.prefix(8)),
                                   messageReaders: readers, removedReaders: removedReaders, commitMillis: millis))
        }

        func commit(by committer: [UInt8], _ actions: [CommitAction], stores: [[UInt8]: MemoryKeyPackageStore] = [:], action: String) throws {
            var s = sessions[committer]!
            let t0 = ContinuousClock.now
            let (bundle, sealed) = try s.createCommit(actions, rng: rng)
            let ms = Double((ContinuousClock.now - t0).components.attoseconds) / 1e15 + Double((ContinuousClock.now - t0).components.seconds) * 1000
            clock += 1
            let id = SHA256.hash(sealed)
            let welcomes = try s.confirmPublished(bundle, sealed: sealed, createdAt: clock, eventID: id)
            sessions[committer] = s
            for other in order where other != committer {
                var o = sessions[other]!
                let out = try o.receive(sealed, createdAt: clock, eventID: id)
                if out.contains(.removed) {
                    removed.append(o)
                    sessions[other] = nil
                } else {
                    sessions[other] = o
                }
            }
            order.removeAll { sessions[$0] == nil }
            for w in welcomes {
                guard let (joiner, store) = stores.first(where: { (try? $0.value.bundle(reference: w.keyPackageRef)) != nil }) else {
                    throw GroupError(.unknownKeyPackage, "simulation lost a KeyPackage")
                }
                sessions[joiner] = try GroupSession.join(welcome: w, store: store)
                order.append(joiner)
            }
            try snapshot(action, commitBytes: sealed.count, welcomes: welcomes.count, millis: ms)
        }

        try snapshot("create", commitBytes: 0, welcomes: 0, millis: 0)
        if members > 1 {
            var stores: [[UInt8]: MemoryKeyPackageStore] = [:]
            var actions: [CommitAction] = []
            for _ in 1..<members {
                let id = rng.bytes(32)
                let b = try KeyPackageBundle.create(identity: id, lifetime: Lifetime(notBefore: 0, notAfter: .max), lastResort: false, rng: rng)
                let store = MemoryKeyPackageStore()
                try store.save(b)
                stores[id] = store
                actions.append(.add(b.keyPackage))
            }
            try commit(by: adminID, actions, stores: stores, action: "add")
            try commit(by: order[1], [.selfUpdate], action: "self_update")
        }
        for _ in 0..<removals {
            let candidates = order.filter { $0 != adminID }
            let victim = candidates[Int(rng.uniform(UInt32(candidates.count)))]
            try commit(by: adminID, [.remove(identity: victim)], action: "remove")
        }
        if order.count > 2 {
            let leaver = order.last!
            let request = try sessions[leaver]!.encryptLeaveRequest(rng: rng)
            var admin = sessions[adminID]!
            clock += 1
            _ = try admin.receive(request, createdAt: clock, eventID: SHA256.hash(request))
            sessions[adminID] = admin
            guard let id = admin.leaveRequests.first else { throw GroupError(.invalidProposal, "leave request lost") }
            try commit(by: adminID, [.selfRemove(identity: id)], action: "self_remove")
        }
        return facts
    }
}
