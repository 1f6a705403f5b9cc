import XCTest
import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitMLS

/// Rules the retired private-format tests checked, on `MarmotGroup<MLSGroupState>`: a
/// last-resort KeyPackage serves several groups while a normal one is retired by its Welcome,
/// and a Welcome wrapped by a non-admin is refused and keeps the KeyPackage.
final class MarmotEngineRuleTests: XCTestCase {
    typealias G = MarmotGroup<MLSGroupState>
    let now: Int64 = 1_800_000_000
    let relays = ["wss://relay.example.com"]

    func creator(_ key: Secp256k1.PrivateKey, seed: UInt64) throws -> G {
        let (_, bundle) = try KeyPackageEvent.create(nostrKey: key, relays: relays, lastResort: false, profile: .mip, now: now)
        return try G.create(creator: bundle, name: "g", relays: relays, rng: SeededRandom(seed: seed))
    }

    func testLastResortKeyPackageServesTwoGroupsAndANormalOneIsRetired() throws {
        let alice = Secp256k1.PrivateKey(), carol = Secp256k1.PrivateKey(), bob = Secp256k1.PrivateKey()
        let store = MemoryKeyPackageStore()
        let (event, bundle) = try KeyPackageEvent.create(nostrKey: bob, relays: relays, lastResort: true, profile: .mip, now: now)
        try store.save(bundle)
        let kp = try KeyPackageValidator.validate(event, now: now)
        for (admin, seed) in [(alice, UInt64(1)), (carol, UInt64(2))] {
            var g = try creator(admin, seed: seed)
            let pending = try g.commit(adding: [kp], now: now)
            let wraps = try g.confirmPublished(pending, acknowledgedBy: relays, wrappingWelcomesFrom: admin, now: now)
            let joined = try G.join(giftWrap: wraps[0], recipient: bob, store: store)
            XCTAssertEqual(joined.nostrGroupID, g.nostrGroupID)
        }
        XCTAssertEqual(try store.references().count, 1, "a last-resort KeyPackage stays")

        let dave = Secp256k1.PrivateKey()
        let daveStore = MemoryKeyPackageStore()
        let (normal, normalBundle) = try KeyPackageEvent.create(nostrKey: dave, relays: relays, lastResort: false, profile: .mip, now: now)
        try daveStore.save(normalBundle)
        var g = try creator(alice, seed: 3)
        let pending = try g.commit(adding: [try KeyPackageValidator.validate(normal, now: now)], now: now)
        let wraps = try g.confirmPublished(pending, acknowledgedBy: relays, wrappingWelcomesFrom: alice, now: now)
        _ = try G.join(giftWrap: wraps[0], recipient: dave, store: daveStore)
        XCTAssertEqual(try daveStore.references().count, 0, "a normal KeyPackage is retired by its Welcome")
    }

    func testAWelcomeWrappedByANonAdminIsRefusedAndKeepsTheKeyPackage() throws {
        let alice = Secp256k1.PrivateKey(), bob = Secp256k1.PrivateKey(), mallory = Secp256k1.PrivateKey()
        let store = MemoryKeyPackageStore()
        let (event, bundle) = try KeyPackageEvent.create(nostrKey: bob, relays: relays, lastResort: false, profile: .mip, now: now)
        try store.save(bundle)
        var g = try creator(alice, seed: 4)
        let pending = try g.commit(adding: [try KeyPackageValidator.validate(event, now: now)], now: now)
        let rumors = try g.confirmPublished(pending, acknowledgedBy: relays, now: now)
        // Mallory re-authors the rumor and wraps it herself: she is not an admin of the group.
        let parsed = try MarmotWelcomeRumor.parse(rumors[0])
        let forged = try MarmotWelcomeRumor.make(welcomeMessage: parsed.welcomeMessage, keyPackageEventID: event.id, relays: relays,
                                                 committer: mallory.publicKey, createdAt: now)
        let wrap = try GiftWrap.wrap(forged, from: mallory, to: bob.publicKey, now: now, using: SystemRandom())
        XCTAssertThrowsError(try G.join(giftWrap: wrap, recipient: bob, store: store)) {
            XCTAssertEqual(($0 as? MLSError)?.code, .invalidWelcome)
        }
        XCTAssertEqual(try store.references().count, 1, "the KeyPackage is kept for the real Welcome")
    }
}
