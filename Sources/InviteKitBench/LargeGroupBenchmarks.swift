import Foundation
import InviteKitCrypto
import InviteKitNostr
import InviteKitMLS

/// `invitekit bench --filter group-scale` rows for issue 19 (PROTOCOL §5.11): groups of 1,000 and
/// 10,000 members with every event within the default 64 KiB budget.
///
/// "built": the group grows as a node grows it: the admin adds everyone through the add planner
/// (each Commit within the budget), releases per-member Welcomes and, when the tree does not fit a
/// Welcome, tree chunks; members the fill rule designates (``LargeGroupFill``) join and make
/// their self-update. Every event is measured. The last member is added alone: its join (the
/// add-1 Commit, the chunks, its Welcome) is the "one join" the rows count and the timed case
/// repeats. "fresh": one unbudgeted Commit adds everyone (no fill), to show what the fill fixes;
/// its commits are built without a budget to measure them.
package enum LargeGroupBenchmarks {
    package struct Row {
        package let name: String
        package let value: Int
        package let unit: String
    }

    /// Rows measured while building the fixtures, printed by the bench command. Written from the
    /// bench's one thread only.
    nonisolated(unsafe) package static var rows: [Row] = []

    static let relays = ["wss://relay.invitekit.invalid"]
    static let now: Int64 = 1_800_000_000

    final class Built: @unchecked Sendable {
        // Safe: the bench runner calls one case at a time, from one task.
        let size: Int
        var admin: MarmotGroup<MLSGroupState>
        let store = MemoryKeyPackageStore()
        /// The last joiner's gift wrap, key and chunk events (its KeyPackage is last-resort, so the
        /// timed join can repeat).
        private(set) var lastWrap: NostrEvent?
        private(set) var lastKey: Secp256k1.PrivateKey?
        private(set) var lastChunks: [NostrEvent] = []
        /// The admin's key and the last joiner's Welcome rumor as read back: the largest-group
        /// search re-sends that Welcome with chunk lists of other lengths.
        let adminKey: Secp256k1.PrivateKey
        private(set) var lastWelcome: MarmotWelcomeRumor.Parsed?
        var largestEvent = 0
        var events = 0
        var addCommits = 0
        var fillCommits = 0
        var joinEvents = 0
        var joinBytes = 0
        var joinLargestEvent = 0
        var treeBytes = 0
        var seconds = 0.0

        init(size: Int, budget: EventBudget) throws {
            self.size = size
            let start = ContinuousClock.now
            let rng = SeededRandom(seed: UInt64(size) &+ 19)
            adminKey = Secp256k1.PrivateKey(using: rng)
            let (_, adminBundle) = try KeyPackageEvent.create(nostrKey: adminKey, relays: LargeGroupBenchmarks.relays, lastResort: false,
                                                              now: LargeGroupBenchmarks.now)
            // Current-profile KeyPackages (the default); the out-of-band tree must be negotiated
            // (PROTOCOL §5.11): without it the tree stays inline and a 1,000-member Welcome is refused.
            admin = try MarmotGroup<MLSGroupState>.create(creator: adminBundle, name: "bench", relays: LargeGroupBenchmarks.relays,
                                                          outOfBandTree: true, rng: rng)
            var keys: [String: Secp256k1.PrivateKey] = [:]
            var keyPackages: [ValidatedKeyPackage] = []
            for i in 1..<size {
                let key = Secp256k1.PrivateKey(using: rng)
                let (event, bundle) = try KeyPackageEvent.create(nostrKey: key, relays: LargeGroupBenchmarks.relays, lastResort: i == size - 1,
                                                                 now: LargeGroupBenchmarks.now)
                try store.save(bundle)
                keys[key.publicKey.hex] = key
                keyPackages.append(try KeyPackageValidator.validate(event, now: LargeGroupBenchmarks.now))
            }
            let last = keyPackages.removeLast()
            var left = keyPackages
            var lastRelease: MarmotCommitRelease?
            var lastCommitBytes = 0
            func record(_ e: NostrEvent) -> Int {
                let n = EventBudget.wireBytes(e)
                largestEvent = max(largestEvent, n)
                events += 1
                return n
            }
            while true {
                let batch = left.isEmpty ? [last] : left
                let step = try admin.nextAddCommit(from: batch, budget: budget, now: LargeGroupBenchmarks.now, rng: rng)
                lastCommitBytes = record(step.pending.event)
                addCommits += 1
                let release = try admin.confirmPublished(step.pending, acknowledgedBy: LargeGroupBenchmarks.relays, wrappingWelcomesFrom: adminKey,
                                                         budget: budget, now: LargeGroupBenchmarks.now, rng: rng)
                for e in release.events { _ = record(e) }
                if left.isEmpty { lastRelease = release; break }
                try fill(release: release, added: step.addedLeaves, keys: keys, budget: budget, rng: rng)
                left.removeFirst(step.added)
            }
            guard let release = lastRelease, let delivery = release.welcomes.first else { throw MLSError(.invalidValue, "no last Welcome") }
            lastWrap = delivery.wrap
            lastKey = keys[delivery.recipient]!
            lastChunks = release.treeChunks
            joinEvents = 1 + release.events.count
            joinBytes = lastCommitBytes + release.events.reduce(0) { $0 + EventBudget.wireBytes($1) }
            joinLargestEvent = max(lastCommitBytes, release.events.map(EventBudget.wireBytes).max() ?? 0)
            let parsed = try MarmotWelcomeRumor.parse(try GiftWrap.unwrap(delivery.wrap, recipient: keys[delivery.recipient]!).rumor)
            lastWelcome = parsed
            treeBytes = admin.state.tree.tlsSerialized.count
            let d = ContinuousClock.now - start
            seconds = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }

        /// The members the fill rule designates join and make their self-update; the admin applies it.
        private func fill(release: MarmotCommitRelease, added leaves: [UInt32], keys: [String: Secp256k1.PrivateKey],
                          budget: EventBudget, rng: RandomSource) throws {
            var fillers: [MarmotGroup<MLSGroupState>] = []
            for (delivery, leaf) in zip(release.welcomes, leaves) where LargeGroupFill.shouldFill(tree: admin.state.tree, leaf: leaf) {
                let key = keys[delivery.recipient]!
                let opened = try MarmotGroup<MLSGroupState>.openWelcome(gift: try GiftWrap.unwrap(delivery.wrap, recipient: key), recipient: key,
                                                                        store: store)
                fillers.append(try MarmotGroup.join(opened, treeChunkEvents: release.treeChunks, store: store))
            }
            var done: [NostrEvent] = []
            for var m in fillers {
                for e in done { _ = m.receive(event: e, now: LargeGroupBenchmarks.now) }
                let p = try m.commit(budget: budget, now: LargeGroupBenchmarks.now, rng: rng)
                largestEvent = max(largestEvent, EventBudget.wireBytes(p.event))
                events += 1
                fillCommits += 1
                guard case .commitApplied? = admin.receive(event: p.event, now: LargeGroupBenchmarks.now).first else {
                    throw MLSError(.invalidCommit, "the admin did not apply a fill commit")
                }
                done.append(p.event)
            }
        }

        /// The newcomer's whole join: unwrap, open, reassemble the tree from the chunks, join.
        func join() throws -> MarmotGroup<MLSGroupState> {
            guard let lastWrap, let lastKey else { throw MLSError(.invalidValue, "no last Welcome") }
            let gift = try GiftWrap.unwrap(lastWrap, recipient: lastKey)
            let opened = try MarmotGroup<MLSGroupState>.openWelcome(gift: gift, recipient: lastKey, store: store)
            return try MarmotGroup.join(opened, treeChunkEvents: lastChunks, store: store)
        }

        /// Kind-445 wire bytes of the admin's next self-update, removal of the member at leaf
        /// `size / 2`, and add of one member; and the most ciphertexts any member's path commit needs.
        func commitSizes(rng: RandomSource) throws -> (selfUpdate: Int, remove: Int, add: Int, worstPath: Int) {
            try LargeGroupBenchmarks.commitSizes(admin: admin, rng: rng)
        }
    }

    static func commitSizes(admin: MarmotGroup<MLSGroupState>, rng: RandomSource) throws -> (selfUpdate: Int, remove: Int, add: Int, worstPath: Int) {
        let huge = try EventBudget(maxEventBytes: 1 << 30)
        let selfUpdate = try admin.commit(budget: huge, now: now, rng: rng).event
        let victim = admin.state.memberIdentities[admin.state.memberIdentities.count / 2]
        let remove = try admin.commit(removing: [victim], budget: huge, now: now, rng: rng).event
        let (kp, _) = try KeyPackageEvent.create(nostrKey: Secp256k1.PrivateKey(using: rng), relays: relays, lastResort: false, now: now)
        // Under the real budget: an add whose path would take over half of it goes without one (PROTOCOL §5.11).
        let add = try admin.commit(adding: [try KeyPackageValidator.validate(kp, now: now)], budget: .standard, now: now, rng: rng).event
        let tree = admin.state.tree
        let worst = tree.occupiedLeaves.map { LargeGroupFill.pathCiphertexts(tree: tree, leaf: $0) }.max() ?? 0
        return (EventBudget.wireBytes(selfUpdate), EventBudget.wireBytes(remove), EventBudget.wireBytes(add), worst)
    }

    /// A group of `size` from one unbudgeted Commit (no fill): the admin's next commits.
    static func fresh(size: Int) throws -> (selfUpdate: Int, remove: Int, add: Int, worstPath: Int) {
        let rng = SeededRandom(seed: UInt64(size) &+ 91)
        let adminKey = Secp256k1.PrivateKey(using: rng)
        let (_, bundle) = try KeyPackageEvent.create(nostrKey: adminKey, relays: relays, lastResort: false, now: now)
        var g = try MarmotGroup<MLSGroupState>.create(creator: bundle, name: "fresh", relays: relays, outOfBandTree: true, rng: rng)
        let others = try (1..<size).map { _ in
            try KeyPackageValidator.validate(try KeyPackageEvent.create(nostrKey: Secp256k1.PrivateKey(using: rng), relays: relays,
                                                                        lastResort: false, now: now).event, now: now)
        }
        // One Commit for everyone; a budget of ~700 B a member holds it (617 B a member with the
        // current profile's identity proofs) but not a Welcome with the
        // tree inline (~870 B a member wrapped), so the release is per-member Welcomes and chunks:
        // the full-list Welcome with the tree, once per member, would be ~9 MB × 10,000.
        let oneCommit = try EventBudget(maxEventBytes: size * 700)
        let p = try g.commit(adding: others, budget: oneCommit, now: now, rng: rng)
        _ = try g.confirmPublished(p, acknowledgedBy: relays, wrappingWelcomesFrom: adminKey, budget: oneCommit, now: now, rng: rng)
        return try commitSizes(admin: g, rng: rng)
    }

    /// The `size`-member group, built on first use; its rows are recorded then.
    static func lazyBuilt(size n: Int) -> BenchLazy<Built> {
        BenchLazy {
            let b = try Built(size: n, budget: .standard)
            rows.append(Row(name: "group-scale built \(n): events", value: b.events, unit: "events"))
            rows.append(Row(name: "group-scale built \(n): add commits", value: b.addCommits, unit: "commits"))
            rows.append(Row(name: "group-scale built \(n): fill commits", value: b.fillCommits, unit: "commits"))
            rows.append(Row(name: "group-scale built \(n): largest event", value: b.largestEvent, unit: "bytes"))
            rows.append(Row(name: "group-scale built \(n): build time", value: Int(b.seconds * 1000), unit: "ms"))
            rows.append(Row(name: "group-scale join \(n): events", value: b.joinEvents, unit: "events"))
            rows.append(Row(name: "group-scale join \(n): bytes", value: b.joinBytes, unit: "bytes"))
            rows.append(Row(name: "group-scale join \(n): largest event", value: b.joinLargestEvent, unit: "bytes"))
            rows.append(Row(name: "group-scale join \(n): tree", value: b.treeBytes, unit: "bytes"))
            let s = try b.commitSizes(rng: SeededRandom(seed: 5))
            rows.append(Row(name: "group-scale built \(n): admin self-update", value: s.selfUpdate, unit: "bytes"))
            rows.append(Row(name: "group-scale built \(n): admin remove", value: s.remove, unit: "bytes"))
            rows.append(Row(name: "group-scale built \(n): admin add-1", value: s.add, unit: "bytes"))
            rows.append(Row(name: "group-scale built \(n): worst member path", value: s.worstPath, unit: "ciphertexts"))
            let largest = try LargestJoinableGroup.search(from: b)
            rows.append(Row(name: "group-scale largest group a joiner can enter (tree bytes/member of the \(n)-member group)",
                            value: largest, unit: "members"))
            let f = try fresh(size: n)
            rows.append(Row(name: "group-scale fresh \(n): admin self-update", value: f.selfUpdate, unit: "bytes"))
            rows.append(Row(name: "group-scale fresh \(n): admin remove", value: f.remove, unit: "bytes"))
            rows.append(Row(name: "group-scale fresh \(n): admin add-1", value: f.add, unit: "bytes"))
            rows.append(Row(name: "group-scale fresh \(n): worst member path", value: f.worstPath, unit: "ciphertexts"))
            BenchLog.progress("group-scale: built the \(n)-member group under 64 KiB in \(String(format: "%.1f", b.seconds)) s: \(b.events) events, largest \(b.largestEvent) B; a joiner can enter \(largest) members")
            return b
        }
    }

    /// The 10,000-member build grows the group commit by commit (~1,300 events, each built and
    /// checked); it runs only with `INVITEKIT_BENCH_LARGE=1`.
    package static var largeEnabled: Bool { ProcessInfo.processInfo.environment["INVITEKIT_BENCH_LARGE"] == "1" }

    static func cases() -> [BenchCase] {
        let small = lazyBuilt(size: 1000), large = lazyBuilt(size: 10_000)
        return [
            BenchCase("group-scale large join 1000") { _ = try small.get().join() },
        ] + (largeEnabled ? [BenchCase("group-scale large join 10000") { _ = try large.get().join() }] : [])
    }
}
