import InviteKit
import InviteKitCrypto
import InviteKitNostr
import InviteKitMLS

/// Convergence v1 (PROTOCOL §5.13, "Passes"): a member's pass holds `n` competing commits for one
/// epoch (each a rename by a different admin) and settles on one branch. Each operation starts from
/// the same copy of the member's state and does what a node does when the pass closes: finds the
/// resolution order on a copy (`resolutionOrder`), then applies the batch in it. That is the time
/// from the pass's cutoff to `Stable`; from the last input, add the policy's fixed 1,000 ms of quiet.
enum ConvergenceBenchmarks {
    final class Fixture: @unchecked Sendable {
        // Safe: the bench runner calls one case at a time, from one task.
        let member: MarmotMLSGroup
        let commits: [NostrEvent]
        let now: Int64

        init(competing n: Int) throws {
            let now: Int64 = 1_800_000_000
            self.now = now
            let rng = SeededRandom(seed: 2800 + UInt64(n))
            let relays = ["wss://relay.example"]
            let keys = (0...n).map { _ in Secp256k1.PrivateKey(using: rng) }
            let stores = keys.map { _ in MemoryKeyPackageStore() }
            let (_, creator) = try KeyPackageEvent.create(nostrKey: keys[0], relays: relays, lastResort: false, now: now, rng: rng)
            var admin = try MarmotMLSGroup.create(creator: creator, name: "bench", relays: relays, rng: rng)
            let kps = try (1...n).map { i -> ValidatedKeyPackage in
                let (event, bundle) = try KeyPackageEvent.create(nostrKey: keys[i], relays: relays, lastResort: false, now: now, rng: rng)
                try stores[i].save(bundle)
                return try KeyPackageValidator.validate(event, now: now)
            }
            let add = try admin.commit(adding: kps, now: now, rng: rng)
            let wraps = try admin.confirmPublished(add, acknowledgedBy: relays, wrappingWelcomesFrom: keys[0], now: now, rng: rng)
            var groups = [admin] + (try (1...n).map { try MarmotMLSGroup.join(giftWrap: wraps[$0 - 1], recipient: keys[$0], store: stores[$0]) })
            // Everyone but the last joiner becomes an admin, so n − 1 admins and the creator compete.
            var data = groups[0].groupData
            data.admins = keys.dropLast().map { $0.publicKey.rawRepresentation }
            let promote = try groups[0].commit(groupData: data, now: now, rng: rng)
            _ = try groups[0].confirmPublished(promote, acknowledgedBy: relays, now: now)
            for i in 1...n { _ = groups[i].receive(event: promote.event, now: now) }
            commits = try (0..<n).map { i in
                var d = groups[i].groupData
                d.name = "branch \(i)"
                return try groups[i].commit(groupData: d, now: now, rng: rng).event
            }
            member = groups[n]
        }
    }

    static func cases() throws -> [BenchCase] {
        [3, 20].map { n in
            let fixture = BenchLazy { try Fixture(competing: n) }
            return BenchCase("convergence.settle.\(n)") {
                let f = try fixture.get()
                var m = f.member
                for c in m.resolutionOrder(of: f.commits, now: f.now) { _ = m.ingest(event: c, now: f.now) }
            }
        }
    }
}
