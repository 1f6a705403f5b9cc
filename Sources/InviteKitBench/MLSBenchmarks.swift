import InviteKit
import InviteKitCrypto
import InviteKitNostr
import InviteKitMLS

/// KeyPackages, HPKE and the group engine (RFC 9420 under the Marmot binding). A fixture group is
/// built on the first call of a group case (the runner's warm-up), not when the list is made.
enum MLSBenchmarks {
    final class Fixture: @unchecked Sendable {
        // Safe: the bench runner calls one case at a time, from one task.
        let admin: MLSGroupState
        let member: MLSGroupState
        let newcomer: KeyPackageBundle
        /// The admin's commit adding ``newcomer``, as the member receives it.
        let commit: [UInt8]
        /// Its Welcome MLSMessage.
        let welcome: [UInt8]

        init(size: Int) throws {
            let rng = SeededRandom(seed: 1000)
            func bundle() throws -> KeyPackageBundle {
                try KeyPackageBundle.create(identity: rng.bytes(32), lifetime: Lifetime(notBefore: 0, notAfter: .max), lastResort: false, rng: rng)
            }
            var admin = try MarmotMLSGroup.create(creator: bundle(), name: "bench", relays: ["wss://relay.example"], rng: rng).state
            let bundles = try (1..<size).map { _ in try bundle() }
            let (pending, _, welcome) = try admin.makeCommit(MarmotCommitRequest(adds: bundles.map(\.keyPackage)), rng: rng)
            try admin.merge(pending)
            member = try MLSGroupState.join(welcomeMessage: welcome!, bundle: bundles[0])
            newcomer = try bundle()
            let add = try admin.makeCommit(MarmotCommitRequest(adds: [newcomer.keyPackage]), rng: rng)
            self.admin = admin
            commit = add.message
            self.welcome = add.welcome!
        }
    }

    static func cases() throws -> [BenchCase] {
        let fixture = BenchLazy { try Fixture(size: 1000) }
        let pair = BenchLazy { try Fixture(size: 2) }
        let rng = SystemRandom()
        let kp = try KeyPackageBundle.create(identity: rng.bytes(32), lifetime: Lifetime(notBefore: 0, notAfter: .max), lastResort: false)
        let hpke = HPKE(aead: .aes128gcm)
        let recipient = X25519.PrivateKey()
        let kiB = [UInt8](repeating: 0x61, count: 1024)
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
            // A PrivateMessage (RFC 9420 §6.3) sealed by one member and opened by the other.
            BenchCase("mls.message.1KiB.seal_open", bytesPerOp: 1024) {
                let f = try pair.get()
                var sender = f.admin
                var receiver = f.member
                let sealed = try sender.sealApplication(kiB, rng: rng)
                _ = try receiver.processMessage(sealed)
            },
        ] + [10, 100].map { n in
            let smaller = BenchLazy { try Fixture(size: n) }
            return BenchCase("mls.commit.add1.n\(n)") {
                let f = try smaller.get()
                _ = try f.admin.makeCommit(MarmotCommitRequest(adds: [f.newcomer.keyPackage]), rng: rng)
            }
        } + [
            BenchCase("mls.commit.add1.n1000") {
                let f = try fixture.get()
                _ = try f.admin.makeCommit(MarmotCommitRequest(adds: [f.newcomer.keyPackage]), rng: rng)
            },
            BenchCase("mls.commit.process.n1000") {
                let f = try fixture.get()
                var m = f.member
                guard case .commit = try m.processMessage(f.commit) else { preconditionFailure("commit did not apply") }
            },
            BenchCase("mls.welcome.process.n1000") {
                let f = try fixture.get()
                _ = try MLSGroupState.join(welcomeMessage: f.welcome, bundle: f.newcomer)
            },
        ]
    }
}
