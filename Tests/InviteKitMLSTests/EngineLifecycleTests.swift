import XCTest
import InviteKitCrypto
@testable import InviteKitMLS

/// The engine end to end: create, add three, everyone reads, remove, self-update, SelfRemove
/// committed by the admin, serialization mid-life.
final class EngineLifecycleTests: XCTestCase {
    func lifecycle(suite: CipherSuite) throws {
        let rng = SeededRandom(seed: 42)
        var alice = try EngineHarness.create(suite: suite, rng: rng)
        XCTAssertEqual(alice.epoch, 0)
        let bobKP = try EngineHarness.bundle(2, suite: suite, rng: rng)
        let carolKP = try EngineHarness.bundle(3, suite: suite, rng: rng)
        let daveKP = try EngineHarness.bundle(4, suite: suite, rng: rng)

        let add = try alice.commit([.add(bobKP.keyPackage), .add(carolKP.keyPackage), .add(daveKP.keyPackage)], rng: rng)
        XCTAssertEqual(alice.epoch, 0, "nothing changes before merge")
        try alice.merge(add)
        XCTAssertEqual(alice.epoch, 1)
        let welcome = try EngineHarness.welcome(add)
        var bob = try MLSGroupState.join(welcome: welcome, keyPackage: bobKP)
        var carol = try MLSGroupState.join(welcome: welcome, keyPackage: carolKP)
        var dave = try MLSGroupState.join(welcome: welcome, keyPackage: daveKP)
        for m in [bob, carol, dave] {
            XCTAssertEqual(m.epochAuthenticator, alice.epochAuthenticator)
            XCTAssertEqual(m.groupContextExtension(MLSExtension.marmotGroupDataType)?.data, Array("group data".utf8))
        }
        XCTAssertEqual(alice.members.count, 4)

        // Everyone reads everyone.
        let hello = try alice.encryptApplication(Array("hello".utf8), rng: rng)
        for i in 0..<3 {
            var m = [bob, carol, dave][i]
            guard case .application(let sender, let identity, let data, _, _) = try m.process(hello) else { return XCTFail("not app") }
            XCTAssertEqual(sender, 0)
            XCTAssertEqual(identity, [UInt8](repeating: 1, count: 32))
            XCTAssertEqual(data, Array("hello".utf8))
            if i == 0 { bob = m } else if i == 1 { carol = m } else { dave = m }
        }
        let fromBob = try bob.encryptApplication(Array("hi".utf8), rng: rng)
        guard case .application(_, _, let d1, _, _) = try alice.process(fromBob) else { return XCTFail() }
        XCTAssertEqual(d1, Array("hi".utf8))
        _ = try carol.process(fromBob)
        _ = try dave.process(fromBob)

        // Remove carol.
        let carolLeaf = carol.ownLeaf
        let remove = try alice.commit([.remove(leaf: carolLeaf)], rng: rng)
        try alice.merge(remove)
        for i in 0..<2 {
            var m = [bob, dave][i]
            guard case .commit(let summary) = try m.process(remove.message) else { return XCTFail("not a commit") }
            XCTAssertEqual(summary.removed, [[UInt8](repeating: 3, count: 32)])
            XCTAssertEqual(m.epochAuthenticator, alice.epochAuthenticator)
            if i == 0 { bob = m } else { dave = m }
        }
        guard case .removed = try carol.process(remove.message) else { return XCTFail("carol not told she was removed") }
        let afterRemove = try alice.encryptApplication(Array("secret".utf8), rng: rng)
        XCTAssertThrowsError(try carol.process(afterRemove)) { XCTAssertEqual(($0 as? MLSError)?.code, .notMember) }
        var carolFresh = carol
        carolFresh.isRemoved = false
        XCTAssertThrowsError(try carolFresh.process(afterRemove), "the removed member holds no key of the new epoch")
        _ = try bob.process(afterRemove)
        _ = try dave.process(afterRemove)

        // Dave self-updates (an empty commit with a path).
        let update = try dave.commit([], rng: rng)
        try dave.merge(update)
        _ = try alice.process(update.message)
        _ = try bob.process(update.message)
        XCTAssertEqual(alice.epochAuthenticator, dave.epochAuthenticator)
        XCTAssertEqual(bob.epochAuthenticator, dave.epochAuthenticator)

        // Serialization round trip mid-life.
        let saved = dave.serialized()
        var daveLoaded = try MLSGroupState(serialized: saved)
        XCTAssertEqual(daveLoaded.epochAuthenticator, dave.epochAuthenticator)
        XCTAssertEqual(daveLoaded.serialized().exportBytes(), saved.exportBytes())

        // Bob leaves: a SelfRemove proposal, committed by alice by reference.
        let leave = try bob.propose(.selfRemove, rng: rng)
        guard case .proposal(let ref, .selfRemove, _) = try alice.process(leave.message) else { return XCTFail("not a proposal") }
        XCTAssertEqual(ref, leave.reference)
        _ = try daveLoaded.process(leave.message)
        let commitLeave = try alice.commit([], references: [ref], rng: rng)
        try alice.merge(commitLeave)
        guard case .commit = try daveLoaded.process(commitLeave.message) else { return XCTFail() }
        guard case .removed = try bob.process(commitLeave.message) else { return XCTFail("bob not removed") }
        XCTAssertEqual(daveLoaded.epochAuthenticator, alice.epochAuthenticator)
        XCTAssertEqual(alice.members.count, 2)

        // The exporter agrees.
        XCTAssertEqual(alice.exporter(label: "marmot", context: Array("group-event".utf8), length: 32).exportBytes(),
                       daveLoaded.exporter(label: "marmot", context: Array("group-event".utf8), length: 32).exportBytes())
    }

    func testLifecycleSuite1() throws { try lifecycle(suite: .x25519Aes128GcmSha256Ed25519) }
    func testLifecycleSuite3() throws { try lifecycle(suite: .x25519ChaCha20Poly1305Sha256Ed25519) }

    func testPastEpochApplicationMessageDecrypts() throws {
        let rng = SeededRandom(seed: 7)
        var alice = try EngineHarness.create(rng: rng)
        let bobKP = try EngineHarness.bundle(2, rng: rng)
        let add = try alice.commit([.add(bobKP.keyPackage)], rng: rng)
        try alice.merge(add)
        var bob = try MLSGroupState.join(welcome: try EngineHarness.welcome(add), keyPackage: bobKP)
        let old = try alice.encryptApplication([1, 2, 3], rng: rng)
        let update = try alice.commit([], rng: rng)
        try alice.merge(update)
        _ = try bob.process(update.message)
        guard case .application(_, _, let data, _, let epoch) = try bob.process(old) else { return XCTFail() }
        XCTAssertEqual(data, [1, 2, 3])
        XCTAssertEqual(epoch, 1)
    }

    func testPublicMessageCommitProcesses() throws {
        let rng = SeededRandom(seed: 8)
        var alice = try EngineHarness.create(rng: rng)
        let bobKP = try EngineHarness.bundle(2, rng: rng)
        let add = try alice.commit([.add(bobKP.keyPackage)], wireFormat: .publicMessage, rng: rng)
        try alice.merge(add)
        var bob = try MLSGroupState.join(welcome: try EngineHarness.welcome(add), keyPackage: bobKP)
        let gce = try alice.commit([.groupContextExtensions([EngineHarness.required, MLSExtension(type: 0xf2ee, data: [9])])],
                                   wireFormat: .publicMessage, rng: rng)
        try alice.merge(gce)
        guard case .commit(let s) = try bob.process(gce.message) else { return XCTFail() }
        XCTAssertTrue(s.extensionsChanged)
        XCTAssertEqual(bob.groupContextExtension(0xf2ee)?.data, [9])
        XCTAssertEqual(bob.epochAuthenticator, alice.epochAuthenticator)
    }
}
