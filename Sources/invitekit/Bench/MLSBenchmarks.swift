import InviteKitCrypto
import InviteKitNostr
import InviteKitMLS

/// KeyPackages, HPKE and the group model (issue 4 speed targets). The 1,000-member fixture is
/// built on the first call of a group case (the runner's warm-up), not when the list is made.
enum MLSBenchmarks {
    final class Fixture: @unchecked Sendable {
        let admin: GroupState
        let member: GroupState
        let newcomer: KeyPackageBundle
        let commit: GroupEventPlaintext
        let welcome: LegacyWelcome
        /// The same commit as a signed kind-445 event, for the whole receive path.
        let commitEvent: NostrEvent

        init(size: Int) throws {
            let rng = SeededRandom(seed: 1000)
            var admin = try GroupState.create(identity: rng.bytes(32), rng: rng)
            var bundles: [KeyPackageBundle] = []
            for _ in 1..<size {
                bundles.append(try KeyPackageBundle.create(identity: rng.bytes(32), lifetime: Lifetime(notBefore: 0, notAfter: .max),
                                                           lastResort: false, rng: rng))
            }
            let add = try admin.createCommit(bundles.map { .add($0.keyPackage) }, rng: rng)
            var groupSession = GroupSession(state: admin)
            let store = MemoryKeyPackageStore()
            try store.save(bundles[0])
            let welcomes = try groupSession.confirmPublished(add, sealed: [], createdAt: 0, eventID: [UInt8](repeating: 0, count: 32))
            admin = groupSession.state
            member = try GroupSession.join(welcome: welcomes.first { $0.keyPackageRef == bundles[0].reference }!, store: store).state
            newcomer = try KeyPackageBundle.create(identity: rng.bytes(32), lifetime: Lifetime(notBefore: 0, notAfter: .max), lastResort: false, rng: rng)
            let c = try admin.createCommit([.add(newcomer.keyPackage)], rng: rng)
            self.admin = admin
            commit = c.plaintext
            let (w, _, _) = try Self.welcomes(admin: admin, newcomer: newcomer, rng: rng)
            welcome = w
            commitEvent = try GroupSession(state: admin).commit([.add(newcomer.keyPackage)], rng: rng).event
        }

        static func welcomes(admin: GroupState, newcomer: KeyPackageBundle, rng: RandomSource) throws -> (LegacyWelcome, CommitBundle, [UInt8]) {
            var s = GroupSession(state: admin)
            let (bundle, sealed) = try s.createCommit([.add(newcomer.keyPackage)], rng: rng)
            let w = try s.confirmPublished(bundle, sealed: sealed, createdAt: 0, eventID: [UInt8](repeating: 1, count: 32))
            return (w[0], bundle, sealed)
        }
    }

    final class Lazy: @unchecked Sendable {
        private let size: Int
        private var value: Fixture?
        init(size: Int) { self.size = size }
        func get() throws -> Fixture {
            if let value { return value }
            let f = try Fixture(size: size)
            value = f
            return f
        }
    }

    static func cases() throws -> [BenchCase] {
        let fixture = Lazy(size: 1000)
        let rng = SystemRandom()
        let kp = try KeyPackageBundle.create(identity: rng.bytes(32), lifetime: Lifetime(notBefore: 0, notAfter: .max), lastResort: false)
        let hpke = HPKE(aead: .aes128gcm)
        let recipient = X25519.PrivateKey()
        let small = try GroupState.create(identity: Secp256k1.PrivateKey().publicKey.rawRepresentation)
        let kiB = [UInt8](repeating: 0x61, count: 1024)
        let signedKiB = small.sign(contentType: .application, body: kiB)
        let kiBText = String(repeating: "a", count: 1024)
        return [
            BenchCase("mls.keypackage.create") {
                _ = try KeyPackageBundle.create(identity: kp.keyPackage.leafNode.credential.identity,
                                                lifetime: Lifetime(notBefore: 0, notAfter: .max), lastResort: false)
            },
            BenchCase("mls.keypackage.verify") { try kp.keyPackage.verify() },
            BenchCase("mls.hpke.seal_open.32B") {
                let (enc, ct) = try hpke.sealBase(publicKey: recipient.publicKey, info: [1], aad: [], plaintext: [UInt8](repeating: 0, count: 32))
                _ = try hpke.openBase(enc: enc, privateKey: recipient, info: [1], aad: [], ciphertext: ct)
            },
            // Target ≤ 20 µs: AEAD framing of a signed event (encrypt + decrypt), no signature work.
            BenchCase("mls.message.1KiB.encrypt_decrypt", bytesPerOp: 1024) {
                let sealed = try small.encrypt(signedKiB, rng: rng)
                precondition(small.decrypt(sealed) != nil)
            },
            // With the sender signature made and checked (Ed25519 sign + verify).
            BenchCase("mls.message.1KiB.signed_seal_open", bytesPerOp: 1024) {
                let sealed = try small.encrypt(small.sign(contentType: .application, body: kiB), rng: rng)
                _ = try small.open(sealed)
            },
            // The whole kind-445 path: inner rumor, signed framing, AEAD, base64, a fresh secp256k1
            // key and BIP-340 signature for the outer event; then verify, open and check the sender.
            BenchCase("mls.message.1KiB.event_roundtrip", bytesPerOp: 1024) {
                var session = GroupSession(state: small)
                let ev = try session.message(EventTemplate(kind: 9, content: kiBText), rng: rng)
                _ = try session.receive(event: ev)
            },
        ] + [10, 100].map { n in
            let smaller = Lazy(size: n)
            return BenchCase("mls.commit.add1.n\(n)") {
                let f = try smaller.get()
                _ = try f.admin.createCommit([.add(f.newcomer.keyPackage)], rng: rng)
            }
        } + [
            // Target ≤ 150 ms.
            BenchCase("mls.commit.add1.n1000") {
                let f = try fixture.get()
                _ = try f.admin.createCommit([.add(f.newcomer.keyPackage)], rng: rng)
            },
            // Target ≤ 1 ms per member.
            BenchCase("mls.commit.process.n1000") {
                let f = try fixture.get()
                guard case .applied = try f.member.processCommit(f.commit) else { preconditionFailure("commit did not apply") }
            },
            // The same at the event level: BIP-340 verify, base64, replay hash, AEAD, then the commit.
            BenchCase("mls.commit.receive_event.n1000") {
                let f = try fixture.get()
                var s = GroupSession(state: f.member)
                _ = try s.receive(event: f.commitEvent)
            },
            // Target ≤ 2 ms.
            BenchCase("mls.welcome.process.n1000") {
                let f = try fixture.get()
                _ = try GroupState.join(welcome: f.welcome, bundle: f.newcomer)
            },
        ]
    }
}
