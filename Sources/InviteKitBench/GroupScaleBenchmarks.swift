import Foundation
import InviteKitCrypto
import InviteKitNostr
import InviteKitMLS

/// `invitekit bench --filter group-scale` (issue 11, "Scale"): commits and Welcomes of the RFC 9420
/// engine in groups of 1,000 and 10,000 members.
///
/// A group is built with public engine calls only: one commit adds everyone; then, for every
/// level of the tree, the first member of the admin's copath subtree at that level joins and
/// makes a self-update, so every node of the admin's copath has a key (the state a group reaches
/// once members have updated; a tree fresh from one big add would make every path encrypt to
/// every leaf). `bytes_per_op` of the commit cases is the kind-445 event content size.
package enum GroupScaleBenchmarks {
    final class Fixture: @unchecked Sendable {
        // Safe: the bench runner calls one case at a time, from one task.
        let admin: MLSGroupState
        /// A member in the admin's largest copath subtree; it processes the admin's commits.
        let receiver: MLSGroupState
        let nostrGroupID: [UInt8]
        let newcomer: KeyPackageBundle
        let addCommit: MLSPendingCommit
        let selfUpdate: MLSPendingCommit
        let addContentBytes: Int
        let selfUpdateContentBytes: Int
        let setupSeconds: Double
        /// The receiver's whole engine state (``MLSGroupState/serialized()``): what a store saves.
        let stateBytes: SecureBytes

        /// A group of `size` members of `profile`: in the current profile every leaf carries an
        /// account identity proof, which a joiner verifies for every leaf (PROTOCOL §5.12.2).
        init(size: Int, profile: MarmotWireProfile = .mip) throws {
            let start = ContinuousClock.now
            let rng = SeededRandom(seed: UInt64(size))
            func bundle() throws -> KeyPackageBundle {
                switch profile {
                case .mip:
                    return try KeyPackageBundle.create(identity: rng.bytes(32), lifetime: Lifetime(notBefore: 0, notAfter: .max), lastResort: false, rng: rng)
                case .current:
                    return try KeyPackageBundle.createCurrent(account: Secp256k1.PrivateKey(using: rng), lifetime: Lifetime(notBefore: 0, notAfter: .max),
                                                              lastResort: false, now: 1_800_000_000, rng: rng)
                }
            }
            let adminBundle = try bundle()
            let data = try MarmotGroupData.create(profile: profile, name: "bench", admins: [adminBundle.keyPackage.leafNode.credential.identity],
                                                  relays: ["wss://relay.invitekit.invalid"], rng: rng)
            nostrGroupID = data.nostrGroupID
            var admin = try MLSGroupState.create(groupID: rng.bytes(32), creator: adminBundle, extensions: try data.groupContextExtensions(), rng: rng)
            let bundles = try (1..<size).map { _ in try bundle() }
            let add = try admin.commit(bundles.map { .add($0.keyPackage) }, rng: rng)
            try admin.merge(add)
            guard let welcome = add.welcomeValue else { throw MLSError(.invalidValue, "no Welcome for the initial adds") }
            // Leaf i + 1 holds bundles[i]. The admin's copath at level k is leaves [2^k, 2^(k+1)).
            var updaters: [MLSGroupState] = []
            var level = 1
            while level < size {
                updaters.append(try MLSGroupState.join(welcome: welcome, keyPackage: bundles[level - 1]))
                level *= 2
            }
            for i in updaters.indices {
                let p = try updaters[i].commit([], rng: rng)
                try updaters[i].merge(p)
                _ = try admin.process(p.message)
                for j in updaters.indices where j != i { _ = try updaters[j].process(p.message) }
            }
            self.admin = admin
            receiver = updaters.last ?? admin
            newcomer = try bundle()
            addCommit = try admin.commit([.add(newcomer.keyPackage)], rng: rng)
            selfUpdate = try admin.commit([], rng: rng)
            let key = admin.exporter(label: MarmotProfile.groupEventExporterLabel, context: MarmotProfile.groupEventExporterContext,
                                     length: MarmotProfile.groupEventKeyLength)
            addContentBytes = try MarmotGroupEvent.make(mlsMessage: addCommit.message, nostrGroupID: nostrGroupID, key: key, rng: rng).content.utf8.count
            selfUpdateContentBytes = try MarmotGroupEvent.make(mlsMessage: selfUpdate.message, nostrGroupID: nostrGroupID, key: key, rng: rng)
                .content.utf8.count
            stateBytes = receiver.serialized()
            let d = ContinuousClock.now - start
            setupSeconds = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
    }

    /// The fixture of `size` members, built on first use; its sizes become rows then.
    static func lazyFixture(size: Int, profile: MarmotWireProfile = .mip) -> BenchLazy<Fixture> {
        BenchLazy {
            let f = try Fixture(size: size, profile: profile)
            let suffix = profile == .mip ? "" : " (current profile)"
            sizes.append(("group-scale add-1 content \(size)\(suffix)", f.addContentBytes))
            sizes.append(("group-scale self-update content \(size)\(suffix)", f.selfUpdateContentBytes))
            sizes.append(("group-scale engine state bytes \(size)\(suffix)", f.stateBytes.count))
            BenchLog.progress("group-scale: built the \(size)-member group in \(String(format: "%.1f", f.setupSeconds)) s; add commit content \(f.addContentBytes) B, self-update content \(f.selfUpdateContentBytes) B")
            return f
        }
    }

    static func cases() -> [BenchCase] {
        let small = lazyFixture(size: 1000), large = lazyFixture(size: 10_000), current = lazyFixture(size: 1000, profile: .current)
        let rng = SeededRandom(seed: 7)
        let junk = JunkFixture()
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // Every figure here is the engine alone, in memory: no store, no file, no relay.
        return [
            BenchCase("group-scale add-1 build 1000") { _ = try small.get().admin.commit([.add(try small.get().newcomer.keyPackage)], rng: rng) },
            BenchCase("group-scale add-1 process 1000") {
                var r = try small.get().receiver
                _ = try r.process(try small.get().addCommit.message)
            },
            BenchCase("group-scale welcome join 1000 on \(cores) cores", floor: CFloorBenchmarks.ed25519FloorName) {
                let f = try small.get()
                _ = try MLSGroupState.join(welcome: f.addCommit.welcomeValue!, keyPackage: f.newcomer)
            },
            // The same Welcome in the current profile: 1,000 BIP-340 proof verifications more
            // (PROTOCOL §5.12.2), spread over the cores like the leaf signatures.
            BenchCase("group-scale welcome join 1000 current profile on \(cores) cores", floor: CFloorBenchmarks.ed25519FloorName) {
                let f = try current.get()
                _ = try MLSGroupState.join(welcome: f.addCommit.welcomeValue!, keyPackage: f.newcomer)
            },
            BenchCase("group-scale engine state save 1000") { _ = try small.get().receiver.serialized() },
            BenchCase("group-scale engine state load 1000") { _ = try MLSGroupState(serialized: try small.get().stateBytes) },
            // An outsider's kind-445 through MarmotGroup.ingest: size check, envelope and Schnorr
            // check, one failed AEAD open per retained epoch (6), into the buffer; no state copy.
            BenchCase("group-scale junk kind-445 rejected by the engine (6 epochs, no save)") { try junk.ingestOne() },
            // A member's real message re-signed under a fresh key (issue 31, D3): size check,
            // content hash, a duplicate; no envelope work, no state change, no save.
            BenchCase("group-scale re-signed copy of a message dismissed (no save)") { try junk.ingestCopy() },
            BenchCase("group-scale add-1 build 10000") { _ = try large.get().admin.commit([.add(try large.get().newcomer.keyPackage)], rng: rng) },
            BenchCase("group-scale self-update build 10000") { _ = try large.get().admin.commit([], rng: rng) },
            BenchCase("group-scale self-update process 10000") {
                var r = try large.get().receiver
                _ = try r.process(try large.get().selfUpdate.message)
            },
            BenchCase("group-scale engine state save 10000") { _ = try large.get().receiver.serialized() },
            BenchCase("group-scale engine state load 10000") { _ = try MLSGroupState(serialized: try large.get().stateBytes) },
        ]
    }

    /// A two-member Marmot group with 5 retained epochs and a pool of outsiders' kind-445 events.
    final class JunkFixture: @unchecked Sendable {
        // Safe: the bench runner calls one case at a time, from one task.
        private var group: MarmotGroup<MLSGroupState>?
        private var events: [NostrEvent] = []
        private var next = 0

        private var copies: [NostrEvent] = []

        func ingestCopy() throws {
            if group == nil { try build() }
            var g = group!
            let r = g.ingest(event: copies[next % copies.count], now: 1_800_000_000)
            next += 1
            guard case .duplicate? = r.outcomes.first, !r.stateChanged else { throw MLSError(.invalidValue, "a copy was not a free duplicate: \(r.outcomes)") }
        }

        func ingestOne() throws {
            if group == nil { try build() }
            // A fresh copy of the group each time, so the buffer never fills and evicts.
            var g = group!
            let r = g.ingest(event: events[next % events.count], now: 1_800_000_000)
            next += 1
            guard case .buffered? = r.outcomes.first, !r.stateChanged else { throw MLSError(.invalidValue, "junk was not just buffered: \(r.outcomes)") }
        }

        private func build() throws {
            let rng = SeededRandom(seed: 445)
            let now: Int64 = 1_800_000_000
            let key = Secp256k1.PrivateKey(using: rng)
            let (_, bundle) = try KeyPackageEvent.create(nostrKey: key, relays: ["wss://relay.invitekit.invalid"], lastResort: false, now: now, rng: rng)
            var g = try MarmotGroup<MLSGroupState>.create(creator: bundle, name: "junk", relays: ["wss://relay.invitekit.invalid"], rng: rng)
            for _ in 0..<MarmotProfile.epochLookback {
                let p = try g.selfUpdate(now: now, rng: rng)
                _ = try g.confirmPublished(p, acknowledgedBy: ["wss://relay.invitekit.invalid"], now: now)
            }
            let h = Hex.encode(g.nostrGroupID)
            events = try (0..<64).map { _ in
                try EventTemplate(kind: 445, content: Base64.encode(rng.bytes(300)), tags: [["h", h]], createdAt: now)
                    .signed(by: Secp256k1.PrivateKey(using: rng), using: rng)
            }
            // The group's own message (sent, so seen) and 64 re-signed copies of it.
            let message = try g.message(EventTemplate(kind: 9, content: "once"), now: now, rng: rng)
            copies = try (0..<64).map { i in
                try EventTemplate(kind: 445, content: message.content, tags: message.tags, createdAt: now + Int64(i) + 1)
                    .signed(by: Secp256k1.PrivateKey(using: rng), using: rng)
            }
            group = g
            try GroupScaleBenchmarks.measureGrowthOnce(rng: rng, now: now)
        }
    }

    /// The state sizes of issue 31 (D2, D4), as size rows: a receiver's serialized state after
    /// 1,000 messages and after 150 refused proposals of 40 KB, and its seen log (kept apart from
    /// the state) after the messages.
    static func measureGrowthOnce(rng: RandomSource, now: Int64) throws {
        let relays = ["wss://relay.invitekit.invalid"]
        let ada = Secp256k1.PrivateKey(using: rng), bob = Secp256k1.PrivateKey(using: rng), store = MemoryKeyPackageStore()
        let (_, adaBundle) = try KeyPackageEvent.create(nostrKey: ada, relays: relays, lastResort: false, now: now, rng: rng)
        var a = try MarmotGroup<MLSGroupState>.create(creator: adaBundle, name: "growth", relays: relays, rng: rng)
        let (event, bobBundle) = try KeyPackageEvent.create(nostrKey: bob, relays: relays, lastResort: false, now: now, rng: rng)
        try store.save(bobBundle)
        let add = try a.commit(adding: [try KeyPackageValidator.validate(event, now: now)], now: now, rng: rng)
        let wraps = try a.confirmPublished(add, acknowledgedBy: relays, wrappingWelcomesFrom: ada, now: now, rng: rng)
        var b = try MarmotGroup<MLSGroupState>.join(giftWrap: wraps[0], recipient: bob, store: store)
        let start = a.serialized().count
        for i in 0..<1_000 { _ = a.receive(event: try b.message(EventTemplate(kind: 9, content: "m\(i)"), now: now, rng: rng), now: now) }
        let afterMessages = a.serialized().count
        let seenAfterMessages = a.seenLog.serialized().count
        let key = a.state.exporter(label: MarmotProfile.groupEventExporterLabel, context: MarmotProfile.groupEventExporterContext,
                                   length: MarmotProfile.groupEventKeyLength)
        for i in 0..<150 {
            let big = [MLSExtension(type: 0xff00, data: [UInt8](repeating: UInt8(i & 0xff), count: 40_000))]
            var sender = b.state
            let (message, _) = try sender.propose(.groupContextExtensions(big), rng: rng)
            _ = a.receive(event: try MarmotGroupEvent.make(mlsMessage: message, nostrGroupID: a.nostrGroupID, key: key, profile: .current,
                                                          createdAt: now, rng: rng), now: now)
        }
        sizes.append(("group-state bytes of a 2-member group", start))
        sizes.append(("group-state bytes after 1000 messages", afterMessages))
        sizes.append(("group seen-log bytes after 1000 messages (apart from the state)", seenAfterMessages))
        sizes.append(("group-state bytes after 150 refused 40 KB proposals", a.serialized().count))
    }

    /// Sizes measured while building the fixtures (kind-445 content bytes), printed by the bench
    /// command as rows of their own. Written from the bench's one thread only.
    nonisolated(unsafe) package static var sizes: [(name: String, bytes: Int)] = []
}
