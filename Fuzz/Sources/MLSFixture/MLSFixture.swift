import FuzzSupport
import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr

/// A two-member group built once per process from a fixed seed: Alice (FixedKeys.author)
/// creates it and adds Bob (FixedKeys.recipient) at epoch 0; both sit at epoch 1. Harnesses
/// feed hostile input to Bob's side of it.
public enum MLSFixture {
    public static let rng = SeededRandom(seed: 0x1_55_6E)
    public static let now: Int64 = 1_700_000_000
    public static let aliceID = FixedKeys.author.publicKey.rawRepresentation
    public static let bobID = FixedKeys.recipient.publicKey.rawRepresentation
    /// The label Welcome encryption uses (group.md §Welcome; `Welcome.label` is internal).
    public static let welcomeLabel = "InviteKit Welcome"

    public struct Group: @unchecked Sendable {
        public let bobBundle: KeyPackageBundle
        public let alice: GroupSession
        public let bob: GroupSession
        public let welcome: LegacyWelcome
        /// The plaintext inside `welcome` (joiner_secret, GroupInfo), kept for seeds.
        public let commitSealed: [UInt8]
        public let applicationSealed: [UInt8]
        /// A commit plaintext by Alice at epoch 1 (self update), with a correct confirmation tag.
        public let nextCommit: GroupEventPlaintext
    }

    public static let group: Group = {
        let lifetime = Lifetime(notBefore: 0, notAfter: UInt64.max)
        let bobBundle = try! KeyPackageBundle.create(identity: bobID, lifetime: lifetime, lastResort: false, rng: rng)
        var alice = GroupSession(state: try! GroupState.create(identity: aliceID, rng: rng))
        let (bundle, sealed) = try! alice.createCommit([.add(bobBundle.keyPackage, isAdmin: false)], rng: rng)
        let welcomes = try! alice.confirmPublished(bundle, sealed: sealed, createdAt: now, eventID: SHA256.hash(sealed))
        let store = MemoryKeyPackageStore()
        try! store.save(bobBundle)
        let bob = try! GroupSession.join(welcome: welcomes[0], store: store)
        precondition(bob.state.epoch == alice.state.epoch, "fixture group did not converge")
        let app = try! alice.encryptApplication(EventTemplate(kind: 9, content: "hello").rumor(pubkey: FixedKeys.author.publicKey, now: now).jsonBytes, rng: rng)
        let (next, nextSealed) = try! alice.createCommit([.selfUpdate], rng: rng)
        return Group(bobBundle: bobBundle, alice: alice, bob: bob, welcome: welcomes[0], commitSealed: nextSealed,
                     applicationSealed: app, nextCommit: next.plaintext)
    }()

    /// A KeyPackage whose credential is FixedKeys.author, valid at ``now``.
    public static let authorBundle: KeyPackageBundle = try! KeyPackageBundle.create(
        identity: aliceID, lifetime: Lifetime(notBefore: UInt64(now) - 1000, notAfter: UInt64(now) + 1000), lastResort: false, rng: rng)
}
