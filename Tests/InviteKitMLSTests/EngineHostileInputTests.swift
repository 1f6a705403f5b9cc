import XCTest
import InviteKitCrypto
@testable import InviteKitMLS

/// Hostile input to the engine: each is refused with a typed MLSError and leaves state unchanged.
final class EngineHostileInputTests: XCTestCase {
    struct Fixture {
        var alice: MLSGroupState
        var bob: MLSGroupState
        let carolKP: KeyPackageBundle
        let rng: SeededRandom
    }

    func fixture() throws -> Fixture {
        let rng = SeededRandom(seed: 99)
        var alice = try EngineHarness.create(rng: rng)
        let bobKP = try EngineHarness.bundle(2, rng: rng)
        let add = try alice.commit([.add(bobKP.keyPackage)], rng: rng)
        try alice.merge(add)
        let bob = try MLSGroupState.join(welcome: try EngineHarness.welcome(add), keyPackage: bobKP)
        return Fixture(alice: alice, bob: bob, carolKP: try EngineHarness.bundle(3, rng: rng), rng: rng)
    }

    /// A Welcome for carol whose GroupInfo is `edit`ed and re-sealed (re-signed when `resign`).
    func tamperedWelcome(_ f: Fixture, resign: Bool, edit: (inout GroupInfo) -> Void) throws -> Welcome {
        let pending = try f.alice.commit([.add(f.carolKP.keyPackage)], rng: f.rng)
        let next = pending.next
        var info = GroupInfo(groupContext: next.groupContext, extensions: [RatchetTreeExtension.fromTree(next.tree)],
                             confirmationTag: [], signer: next.ownLeaf, signature: [])
        let real = try MLSGroupState.openGroupInfo(welcome: try EngineHarness.welcome(pending), joinerSecret: next.epochSecrets.joinerSecret)
        info.confirmationTag = real.confirmationTag
        info.sign(with: next.signatureKey)
        edit(&info)
        if resign { info.sign(with: next.signatureKey) }
        let suite = next.cipherSuite
        let (key, nonce) = try KeySchedule.welcomeKeyAndNonce(welcomeSecret: next.epochSecrets.welcomeSecret, suite: suite)
        let sealedInfo = try suite.hpke().aead.seal(info.tlsSerialized, key: key, nonce: nonce.exportBytes(), aad: [])
        let gs = GroupSecrets(joinerSecret: next.epochSecrets.joinerSecret, pathSecret: nil)
        let ct = try MLSCrypto.encryptWithLabel(suite: suite, publicKey: f.carolKP.keyPackage.initKey, label: "Welcome",
                                                context: sealedInfo, plaintext: gs.secureSerialization, rng: f.rng)
        return Welcome(cipherSuite: suite, secrets: [EncryptedGroupSecrets(newMember: f.carolKP.reference, encryptedGroupSecrets: ct)],
                       encryptedGroupInfo: sealedInfo)
    }

    func code(_ body: () throws -> Void) -> MLSError.Code? {
        do { try body(); return nil } catch let e as MLSError { return e.code } catch { return nil }
    }

    func testGarbageAndTruncatedWelcome() throws {
        let f = try fixture()
        let pending = try f.alice.commit([.add(f.carolKP.keyPackage)], rng: f.rng)
        let bytes = try XCTUnwrap(pending.welcome)
        for n in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 40)) {
            XCTAssertNotNil(code { _ = try MLSMessage(tlsSerialized: Array(bytes[0..<n])) }, "prefix \(n)")
        }
        XCTAssertNotNil(code { _ = try MLSMessage(tlsSerialized: f.rng.bytes(300)) })
        var welcome = try EngineHarness.welcome(pending)
        welcome.encryptedGroupInfo[5] ^= 1
        XCTAssertNotNil(code { _ = try MLSGroupState.join(welcome: welcome, keyPackage: f.carolKP) })
        let other = try EngineHarness.bundle(9, rng: f.rng)
        XCTAssertEqual(code { _ = try MLSGroupState.join(welcome: try EngineHarness.welcome(pending), keyPackage: other) }, .notFound)
    }

    func testUntamperedReconstructionJoins() throws {
        let f = try fixture()
        let w = try tamperedWelcome(f, resign: false) { _ in }
        XCTAssertNoThrow(try MLSGroupState.join(welcome: w, keyPackage: f.carolKP))
    }

    func testGroupInfoWithBadSignature() throws {
        let f = try fixture()
        let w = try tamperedWelcome(f, resign: false) { $0.signature[0] ^= 1 }
        XCTAssertEqual(code { _ = try MLSGroupState.join(welcome: w, keyPackage: f.carolKP) }, .invalidSignature)
    }

    func testGroupInfoWithBadConfirmationTag() throws {
        let f = try fixture()
        let w = try tamperedWelcome(f, resign: true) { $0.confirmationTag[0] ^= 1 }
        XCTAssertEqual(code { _ = try MLSGroupState.join(welcome: w, keyPackage: f.carolKP) }, .invalidConfirmationTag)
    }

    func testTreeWithBadParentHash() throws {
        let f = try fixture()
        let w = try tamperedWelcome(f, resign: true) { info in
            var tree = try! RatchetTree(tlsSerialized: info.extensions[0].data)
            let i = tree.nodes.firstIndex { $0?.parentNode != nil }!
            guard var p = tree.nodes[i]?.parentNode else { return }
            p.parentHash = [UInt8](repeating: 7, count: 32)
            tree.setNode(UInt32(i), .parent(p))
            info.extensions = [RatchetTreeExtension.fromTree(tree)]
            info.groupContext.treeHash = tree.treeHash
        }
        XCTAssertEqual(code { _ = try MLSGroupState.join(welcome: w, keyPackage: f.carolKP) }, .parentHashMismatch)
    }

    func testCommitWithBadConfirmationTagLeavesStateUnchanged() throws {
        var f = try fixture()
        let pending = try f.alice.commit([], wireFormat: .publicMessage, rng: f.rng)
        guard case .publicMessage(let pm) = try MLSFramedMessage(tlsSerialized: pending.message, parser: .standard) else { return XCTFail() }
        var ac = pm.authenticatedContent
        ac.auth.confirmationTag![0] ^= 1
        let forged = try PublicMessage.protect(ac, membershipKey: f.alice.epochSecrets.membershipKey,
                                               groupContext: f.alice.groupContext.tlsSerialized)
        let before = f.bob.serialized().exportBytes()
        XCTAssertEqual(code { _ = try f.bob.process(MLSFramedMessage.publicMessage(forged).tlsSerialized) }, .invalidConfirmationTag)
        XCTAssertEqual(f.bob.serialized().exportBytes(), before)
        XCTAssertNoThrow(try f.bob.process(pending.message))
    }

    func testGarbageCommitAndUnknownSender() throws {
        var f = try fixture()
        let before = f.bob.serialized().exportBytes()
        XCTAssertNotNil(code { _ = try f.bob.process(f.rng.bytes(200)) })
        XCTAssertNotNil(code { _ = try f.bob.process([0, 1, 0, 1]) })
        // A commit signed by a leaf that is not in the tree.
        let content = FramedContent(groupID: f.bob.groupID, epoch: f.bob.epoch, sender: .member(leafIndex: 7),
                                    body: .commit(Commit(proposals: [], path: nil).tlsSerialized))
        var ac = AuthenticatedContent.sign(wireFormat: .publicMessage, content: content, signer: f.alice.signatureKey,
                                           groupContext: f.alice.groupContext.tlsSerialized)
        ac.auth.confirmationTag = [UInt8](repeating: 0, count: 32)
        let pm = try PublicMessage.protect(ac, membershipKey: f.alice.epochSecrets.membershipKey, groupContext: f.alice.groupContext.tlsSerialized)
        XCTAssertEqual(code { _ = try f.bob.process(MLSFramedMessage.publicMessage(pm).tlsSerialized) }, .invalidSender)
        XCTAssertEqual(f.bob.serialized().exportBytes(), before)
    }

    func testTruncatedStateRejected() throws {
        let f = try fixture()
        let bytes = f.bob.serialized().exportBytes()
        for n in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 30)) {
            XCTAssertNotNil(code { _ = try MLSGroupState(serialized: SecureBytes(copying: Array(bytes[0..<n]))) }, "prefix \(n)")
        }
        var wrongVersion = bytes
        wrongVersion[0] = 3
        XCTAssertEqual(code { _ = try MLSGroupState(serialized: SecureBytes(copying: wrongVersion)) }, .unsupportedVersion)
    }

    func testInvalidProposalListsRefused() throws {
        let f = try fixture()
        let bobKP = f.bob.ownLeafNode!
        XCTAssertEqual(code { _ = try f.alice.commit([.remove(leaf: 5)], rng: f.rng) }, .invalidProposal)
        XCTAssertEqual(code { _ = try f.alice.commit([.remove(leaf: f.alice.ownLeaf)], rng: f.rng) }, .invalidProposal)
        XCTAssertEqual(code { _ = try f.alice.commit([.remove(leaf: 1), .remove(leaf: 1)], rng: f.rng) }, .invalidProposal)
        XCTAssertEqual(code { _ = try f.alice.commit([], references: [[1, 2, 3]], rng: f.rng) }, .unknownProposal)
        XCTAssertEqual(code { _ = try f.alice.commit([.add(f.carolKP.keyPackage), .add(f.carolKP.keyPackage)], rng: f.rng) }, .invalidProposal)
        // Dropping the group's 0xf2ee would change its Marmot profile: refused before anything else.
        XCTAssertEqual(code { _ = try f.alice.commit([.groupContextExtensions([MLSExtension(type: 0xabcd, data: [])])], rng: f.rng) },
                       .profileMismatch)
        XCTAssertEqual(code {
            _ = try f.alice.commit([.groupContextExtensions([EngineHarness.required, EngineHarness.required])], rng: f.rng)
        }, .invalidProposal)
        XCTAssertEqual(bobKP.credential.identity, [UInt8](repeating: 2, count: 32))
    }

    func testRemovedMemberCannotCommitOrSend() throws {
        var f = try fixture()
        let remove = try f.alice.commit([.remove(leaf: f.bob.ownLeaf)], rng: f.rng)
        guard case .removed = try f.bob.process(remove.message) else { return XCTFail() }
        XCTAssertEqual(code { _ = try f.bob.commit([], rng: f.rng) }, .notMember)
        XCTAssertEqual(code { _ = try f.bob.encryptApplication([1], rng: f.rng) }, .notMember)
    }
}
