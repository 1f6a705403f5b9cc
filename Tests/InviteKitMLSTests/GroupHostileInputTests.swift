import XCTest
import InviteKitCrypto
@testable import InviteKitMLS

/// Mutated, truncated and garbage group inputs: typed errors, never a crash, never accepted.
final class GroupHostileInputTests: XCTestCase {
    func fixture() throws -> (GroupHarness, [[UInt8]]) {
        let h = GroupHarness(seed: 77)
        let a = try h.createGroup()
        let b = h.identity(), c = h.identity()
        try h.commit(a, [.add(try h.newKeyPackage(for: b)), .add(try h.newKeyPackage(for: c))])
        return (h, [a, b, c])
    }

    func testEveryByteFlipOfACommitIsRejected() throws {
        let (h, ids) = try fixture()
        let commit = try h.sessions[ids[0]]!.state.createCommit([.remove(identity: ids[2])], rng: h.rng).plaintext
        let bytes = commit.tlsSerialized
        let bob = h.sessions[ids[1]]!.state
        guard case .applied = try bob.processCommit(commit) else { return XCTFail() }
        var parsed = 0
        for i in 0..<bytes.count {
            var m = bytes
            m[i] ^= 0x01
            guard let pt = try? GroupEventPlaintext(tlsSerialized: m) else { continue }
            parsed += 1
            XCTAssertThrowsError(try bob.processCommit(pt), "flip at \(i) accepted") { XCTAssertTrue($0 is GroupError, "\($0)") }
        }
        XCTAssertGreaterThan(parsed, bytes.count / 2)
    }

    func testTruncationsRejected() throws {
        let (h, ids) = try fixture()
        let bundle = try h.sessions[ids[0]]!.state.createCommit([.add(try h.newKeyPackage(for: h.identity()))], rng: h.rng)
        let pt = bundle.plaintext.tlsSerialized
        for n in stride(from: 0, to: pt.count, by: 7) {
            XCTAssertThrowsError(try GroupEventPlaintext(tlsSerialized: Array(pt[0..<n])))
        }
        let w = bundle.welcomes[0].tlsSerialized
        for n in 0..<w.count { XCTAssertThrowsError(try LegacyWelcome(tlsSerialized: Array(w[0..<n]))) }
    }

    func testWelcomeMutationsRejected() throws {
        let h = GroupHarness(seed: 78)
        let a = try h.createGroup()
        let joiner = h.identity()
        let kp = try h.newKeyPackage(for: joiner)
        let bundle = try h.sessions[a]!.state.createCommit([.add(kp)], rng: h.rng)
        let priv = try XCTUnwrap(try h.stores[joiner]!.bundle(reference: kp.reference))
        let w = bundle.welcomes[0]
        XCTAssertNoThrow(try GroupState.join(welcome: w, bundle: priv))
        var bytes = w.tlsSerialized
        var state: UInt64 = 88172645463325252
        for _ in 0..<300 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            let i = Int(state % UInt64(bytes.count))
            bytes[i] ^= 0x80
            if let m = try? LegacyWelcome(tlsSerialized: bytes) {
                XCTAssertThrowsError(try GroupState.join(welcome: m, bundle: priv), "mutation at \(i) accepted")
            }
            bytes[i] ^= 0x80
        }
    }

    func testGarbageContentIsBufferedBoundedAndTyped() throws {
        let (h, ids) = try fixture()
        var s = h.sessions[ids[1]]!
        for i in 0..<(GroupSession.pendingLimit + 20) {
            let junk = h.rng.bytes(40 + i % 50)
            XCTAssertThrowsError(try s.receive(junk, createdAt: 1, eventID: SHA256.hash(junk))) {
                XCTAssertEqual(($0 as? GroupError)?.code, .undecryptable)
            }
        }
        XCTAssertEqual(s.pendingCount, GroupSession.pendingLimit)
        XCTAssertThrowsError(try s.receive([], createdAt: 1, eventID: [])) { XCTAssertEqual(($0 as? GroupError)?.code, .undecryptable) }
        // Still works afterwards.
        let msg = try h.sessions[ids[0]]!.encryptApplication([1], rng: h.rng)
        XCTAssertEqual(try s.receive(msg, createdAt: 2, eventID: SHA256.hash(msg)).count, 1)
    }

    func testProposalFromAnotherIdentityRejected() throws {
        let (h, ids) = try fixture()
        // Bob signs a leave request naming carol.
        let st = h.sessions[ids[1]]!.state
        let pt = st.sign(contentType: .proposal, body: LegacyProposal.selfRemove(identity: ids[2]).tlsSerialized)
        let sealed = try st.encrypt(pt, rng: h.rng)
        var a = h.sessions[ids[0]]!
        XCTAssertThrowsError(try a.receive(sealed, createdAt: 1, eventID: SHA256.hash(sealed))) {
            XCTAssertEqual(($0 as? GroupError)?.code, .invalidProposal)
        }
        XCTAssertTrue(a.leaveRequests.isEmpty)
    }

    func testInvalidProposalsRejectedByCommitter() throws {
        let (h, ids) = try fixture()
        let st = h.sessions[ids[0]]!.state
        func code(_ a: [CommitAction]) -> GroupError.Code? {
            do { _ = try st.createCommit(a, rng: h.rng); return nil } catch { return (error as? GroupError)?.code }
        }
        XCTAssertEqual(code([.remove(identity: h.identity())]), .invalidProposal)
        XCTAssertEqual(code([.remove(identity: ids[0])]), .invalidProposal)
        XCTAssertEqual(code([.remove(identity: ids[1]), .remove(identity: ids[1])]), .invalidProposal)
        XCTAssertEqual(code([.selfUpdate, .selfUpdate]), .invalidProposal)
        let dup = try h.newKeyPackage(for: ids[1])
        XCTAssertEqual(code([.add(dup)]), .invalidProposal)
        var bad = try h.newKeyPackage(for: h.identity())
        bad.signature[1] ^= 1
        XCTAssertEqual(code([.add(bad)]), .invalidProposal)
        // A self-update to a low-order X25519 point would break every later commit: refused.
        XCTAssertFalse(GroupState.isUsableX25519([UInt8](repeating: 0, count: 32)))
        XCTAssertTrue(GroupState.isUsableX25519(st.ownMember.encryptionKey))
        var pt = try st.createCommit([.selfUpdate], rng: h.rng).plaintext
        var body = try LegacyCommit(tlsSerialized: pt.body)
        body.proposals = [.update(encryptionKey: [UInt8](repeating: 0, count: 32), signatureKey: st.ownMember.signatureKey)]
        pt.body = body.tlsSerialized
        pt.signature = st.sign(contentType: .commit, body: pt.body).signature
        XCTAssertThrowsError(try h.sessions[ids[1]]!.state.processCommit(pt)) { XCTAssertEqual(($0 as? GroupError)?.code, .invalidProposal) }
        // Removing and re-adding the same identity in one commit is allowed (a device reset).
        XCTAssertNil(code([.remove(identity: ids[1]), .add(dup)]))
        let readd = try st.createCommit([.remove(identity: ids[1]), .add(dup)], rng: h.rng)
        guard case .removed = try h.sessions[ids[1]]!.state.processCommit(readd.plaintext) else { return XCTFail("old device must be removed") }
        guard case .applied = try h.sessions[ids[2]]!.state.processCommit(readd.plaintext) else { return XCTFail() }
    }
}
