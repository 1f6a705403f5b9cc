import FuzzSupport
import InviteKitCrypto
@testable import InviteKitMLS
import InviteKitNostr

/// A Marmot group over the RFC 9420 engine, built once per process from fixed keys and a fixed
/// seed: Alice (FixedKeys.author) creates it and adds Bob (FixedKeys.recipient); both sit at
/// epoch 1. Harnesses attack Bob's copy. Alice then prepares, without merging, what Bob may
/// legitimately receive at epoch 1: an application message, a commit adding Carol (with Carol's
/// Welcome) and the kind-445 events carrying them.
public enum EngineFixture {
    public static let rng = SeededRandom(seed: 0x9420)
    public static let now: Int64 = 1_800_000_000
    public static let relays = ["wss://relay.example.com"]

    public struct Group: @unchecked Sendable {
        public let alice: MarmotGroup<MLSGroupState>
        public let bob: MarmotGroup<MLSGroupState>
        /// Carol's KeyPackage bundle, the target of ``welcomeForCarol``.
        public let carolBundle: KeyPackageBundle
        /// Alice's leaf signature key, for hostile content a member genuinely signed.
        public let aliceSigner: Ed25519.PrivateKey
        /// Alice's application message at epoch 1 (an MLSMessage with a PrivateMessage) and the
        /// Marmot application payload (an unsigned kind-9 rumor) inside it.
        public let application: [UInt8]
        public let applicationPlaintext: [UInt8]
        /// Alice's commit adding Carol at epoch 1 (an MLSMessage with a PrivateMessage).
        public let commit: [UInt8]
        /// The Welcome (an MLSMessage) for Carol that goes with ``commit``.
        public let welcomeForCarol: [UInt8]
        /// The GroupContext Carol must land in (epoch 2).
        public let contextAfterCommit: [UInt8]
        /// Kind-445 events sealing ``application`` and ``commit``.
        public let applicationEvent: NostrEvent
        public let commitEvent: NostrEvent
        /// Alice's self-remove proposal at epoch 1 (an MLSMessage with a PublicMessage).
        public let proposal: [UInt8]
    }

    public static let group: Group = {
        let aliceKey = FixedKeys.author, bobKey = FixedKeys.recipient
        let carolKey = try! Secp256k1.PrivateKey(rawRepresentation: [UInt8](repeating: 0x33, count: 32))
        let (_, aliceBundle) = try! KeyPackageEvent.create(nostrKey: aliceKey, relays: relays, lastResort: false, profile: .mip, now: now, rng: rng)
        var alice = try! MarmotGroup<MLSGroupState>.create(creator: aliceBundle, name: "fuzz", relays: relays, rng: rng)
        let bobStore = MemoryKeyPackageStore()
        let (bobEvent, bobBundle) = try! KeyPackageEvent.create(nostrKey: bobKey, relays: relays, lastResort: false, profile: .mip, now: now, rng: rng)
        try! bobStore.save(bobBundle)
        let bobKP = try! KeyPackageValidator.validate(bobEvent, now: now)
        let add = try! alice.commit(adding: [bobKP], now: now, rng: rng)
        let wraps = try! alice.confirmPublished(add, acknowledgedBy: relays, wrappingWelcomesFrom: aliceKey, now: now, rng: rng)
        let bob = try! MarmotGroup<MLSGroupState>.join(giftWrap: wraps[0], recipient: bobKey, store: bobStore)
        precondition(bob.epoch == 1 && alice.epoch == 1, "fixture group did not converge")

        let (carolEvent, carolBundle) = try! KeyPackageEvent.create(nostrKey: carolKey, relays: relays, lastResort: false, profile: .mip, now: now, rng: rng)
        let carolKP = try! KeyPackageValidator.validate(carolEvent, now: now)
        var aliceState = alice.state
        let author = try! Secp256k1.XOnlyPublicKey(rawRepresentation: aliceState.ownIdentity)
        let plaintext = try! MarmotApplicationMessage.encode(EventTemplate(kind: 9, content: "hello").rumor(pubkey: author, now: now))
        let application = try! aliceState.sealApplication(plaintext, rng: rng)
        let proposal = try! aliceState.proposeSelfRemove(rng: rng)
        let (pending, commit, welcome) = try! alice.state.makeCommit(MarmotCommitRequest(adds: [carolKP.keyPackage]), rng: rng)
        var merged = alice.state
        try! merged.merge(pending)
        let key = alice.state.exporter(label: MarmotProfile.groupEventExporterLabel, context: MarmotProfile.groupEventExporterContext,
                                       length: MarmotProfile.groupEventKeyLength)
        let appEvent = try! MarmotGroupEvent.make(mlsMessage: application, nostrGroupID: alice.nostrGroupID, key: key, createdAt: now + 1, rng: rng)
        let commitEvent = try! MarmotGroupEvent.make(mlsMessage: commit, nostrGroupID: alice.nostrGroupID, key: key, createdAt: now + 2, rng: rng)
        return Group(alice: alice, bob: bob, carolBundle: carolBundle, aliceSigner: aliceBundle.signaturePrivateKey, application: application, applicationPlaintext: plaintext, commit: commit,
                     welcomeForCarol: welcome!, contextAfterCommit: merged.groupContext.tlsSerialized,
                     applicationEvent: appEvent, commitEvent: commitEvent, proposal: proposal)
    }()

    /// Bob's epoch-1 kind-445 key.
    public static var bobKey: SecureBytes {
        group.bob.state.exporter(label: MarmotProfile.groupEventExporterLabel, context: MarmotProfile.groupEventExporterContext,
                                 length: MarmotProfile.groupEventKeyLength)
    }

    /// A byte-wise fingerprint of a state, to check that a refused input changed nothing.
    public static func fingerprint(_ s: MLSGroupState) -> [UInt8] { s.serialized().exportBytes() }
}
