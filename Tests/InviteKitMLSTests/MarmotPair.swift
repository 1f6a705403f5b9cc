import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitMLS

/// Two members at epoch 1: an admin who created the group and added the other by a Welcome.
enum MarmotPair {
    typealias G = MarmotGroup<MLSGroupState>

    static func make(profile: MarmotWireProfile = .current, now: Int64, relays: [String], seed: UInt64 = 9) throws -> (admin: G, member: G) {
        let ada = Secp256k1.PrivateKey(), bob = Secp256k1.PrivateKey(), store = MemoryKeyPackageStore()
        let (_, bundle) = try KeyPackageEvent.create(nostrKey: ada, relays: relays, lastResort: false, profile: profile, now: now)
        var a = try G.create(creator: bundle, name: "g", relays: relays, rng: SeededRandom(seed: seed))
        let (event, b) = try KeyPackageEvent.create(nostrKey: bob, relays: relays, lastResort: false, profile: profile, now: now)
        try store.save(b)
        let pending = try a.commit(adding: [try KeyPackageValidator.validate(event, now: now)], now: now)
        let wraps = try a.confirmPublished(pending, acknowledgedBy: relays, wrappingWelcomesFrom: ada, now: now)
        return (a, try G.join(giftWrap: wraps[0], recipient: bob, store: store))
    }
}
