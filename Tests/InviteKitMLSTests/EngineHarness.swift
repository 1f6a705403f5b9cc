import XCTest
import InviteKitCrypto
@testable import InviteKitMLS

/// Members for engine tests: deterministic KeyPackages and a Marmot-like group.
enum EngineHarness {
    static let groupDataExtension = MLSExtension(type: MLSExtension.marmotGroupDataType, data: Array("group data".utf8))

    static var required: MLSExtension {
        RequiredCapabilities(extensionTypes: [MLSExtension.marmotGroupDataType], proposalTypes: [MLSExtension.selfRemoveProposalType],
                             credentialTypes: []).asExtension
    }

    static func bundle(_ n: UInt8, suite: CipherSuite = .x25519Aes128GcmSha256Ed25519, rng: RandomSource) throws -> KeyPackageBundle {
        try KeyPackageBundle.create(identity: [UInt8](repeating: n, count: 32), lifetime: Lifetime(notBefore: 0, notAfter: .max),
                                    lastResort: false, cipherSuite: suite, rng: rng)
    }

    static func create(suite: CipherSuite = .x25519Aes128GcmSha256Ed25519, rng: RandomSource) throws -> MLSGroupState {
        try MLSGroupState.create(groupID: Array("engine-test-group".utf8), creator: bundle(1, suite: suite, rng: rng),
                                 extensions: [required, groupDataExtension], rng: rng)
    }

    static func welcome(_ pending: MLSPendingCommit) throws -> Welcome {
        guard let bytes = pending.welcome, case .welcome(let w) = try MLSMessage(tlsSerialized: bytes).body else {
            throw MLSError(.invalidValue, "no welcome")
        }
        return w
    }

    /// A group of `size` members after `commits` self-updates by the admin (each retained).
    static func group(size: Int, selfUpdates commits: Int) throws -> (admin: MLSGroupState, member: MLSGroupState) {
        let rng = SeededRandom(seed: 5)
        var admin = try create(rng: rng)
        let bundles = try (2...size).map { try bundle(UInt8(truncatingIfNeeded: $0), rng: rng) }
        let add = try admin.commit(bundles.map { .add($0.keyPackage) }, rng: rng)
        try admin.merge(add)
        var member = try MLSGroupState.join(welcome: try welcome(add), keyPackage: bundles[0])
        for _ in 0..<commits {
            let p = try admin.commit([], rng: rng)
            try admin.merge(p)
            _ = try member.process(p.message)
        }
        return (admin, member)
    }
}
