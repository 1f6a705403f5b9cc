import XCTest
import InviteKitCrypto
@testable import InviteKitMLS

final class GroupLifecycleTests: XCTestCase {
    func testAddMessageRemoveLeaveUpdate() throws {
        let h = GroupHarness(seed: 1)
        let alice = try h.createGroup()
        let bob = h.identity(), carol = h.identity(), dave = h.identity()
        try h.commit(alice, [.add(try h.newKeyPackage(for: bob)), .add(try h.newKeyPackage(for: carol)), .add(try h.newKeyPackage(for: dave))])
        XCTAssertEqual(h.sessions.count, 4)
        h.assertConverged()
        XCTAssertEqual(h.sessions[bob]!.state.epoch, 1)
        XCTAssertEqual(h.sessions[bob]!.state.members.count, 4)

        // Application message from bob, read by all.
        let msg = try h.sessions[bob]!.encryptApplication(Array("hi".utf8), rng: h.rng)
        for id in [alice, carol, dave] {
            var s = h.sessions[id]!
            let out = try s.receive(msg, createdAt: 1, eventID: SHA256.hash(msg))
            XCTAssertEqual(out, [.application(sender: bob, body: Array("hi".utf8), epoch: 1)])
            h.sessions[id] = s
        }

        // Carol self-updates (non-admin commit allowed).
        let carolEncBefore = h.sessions[carol]!.state.ownMember.encryptionKey
        try h.commit(carol, [.selfUpdate])
        h.assertConverged()
        XCTAssertNotEqual(h.sessions[carol]!.state.ownMember.encryptionKey, carolEncBefore)
        XCTAssertEqual(h.sessions[alice]!.state.members[h.sessions[alice]!.state.index(of: carol)!].encryptionKey,
                       h.sessions[carol]!.state.ownMember.encryptionKey)

        // Dave asks to leave; alice commits it.
        let leave = try h.sessions[dave]!.encryptLeaveRequest(rng: h.rng)
        var a = h.sessions[alice]!
        XCTAssertEqual(try a.receive(leave, createdAt: 5, eventID: SHA256.hash(leave)), [.leaveRequest(identity: dave)])
        h.sessions[alice] = a
        try h.commit(alice, [.selfRemove(identity: dave)])
        XCTAssertFalse(h.sessions[dave]!.isMember)
        XCTAssertTrue(h.sessions[alice]!.leaveRequests.isEmpty)

        // Alice removes bob.
        try h.commit(alice, [.remove(identity: bob)])
        XCTAssertFalse(h.sessions[bob]!.isMember)
        h.assertConverged()
        XCTAssertEqual(h.sessions[alice]!.state.members.map(\.identity), [alice, carol])
        XCTAssertEqual(h.sessions[carol]!.state.epoch, 4)
    }

    func testWelcomeRetiresKeyPackageButKeepsLastResort() throws {
        let h = GroupHarness(seed: 2)
        let alice = try h.createGroup()
        let bob = h.identity(), carol = h.identity()
        let kpBob = try h.newKeyPackage(for: bob)
        let kpCarol = try h.newKeyPackage(for: carol, lastResort: true)
        try h.commit(alice, [.add(kpBob), .add(kpCarol)])
        XCTAssertNil(try h.stores[bob]!.bundle(reference: kpBob.reference))
        XCTAssertNotNil(try h.stores[carol]!.bundle(reference: kpCarol.reference))
    }

    func testFailedWelcomeKeepsPackage() throws {
        let h = GroupHarness(seed: 3)
        let alice = try h.createGroup()
        let bob = h.identity()
        let kp = try h.newKeyPackage(for: bob)
        let (bundle, _) = try h.sessions[alice]!.createCommit([.add(kp)], rng: h.rng)
        var w = bundle.welcomes[0]
        w.encryptedJoinerSecret.ciphertext[3] ^= 1
        XCTAssertThrowsError(try GroupSession.join(welcome: w, store: h.stores[bob]!)) {
            XCTAssertEqual(($0 as? GroupError)?.code, .invalidWelcome)
        }
        XCTAssertNotNil(try h.stores[bob]!.bundle(reference: kp.reference))
        var w2 = bundle.welcomes[0]
        w2.encryptedGroupInfo[w2.encryptedGroupInfo.count - 1] ^= 1
        XCTAssertThrowsError(try GroupSession.join(welcome: w2, store: h.stores[bob]!)) {
            XCTAssertEqual(($0 as? GroupError)?.code, .invalidWelcome)
        }
        XCTAssertNotNil(try h.stores[bob]!.bundle(reference: kp.reference))
        XCTAssertNoThrow(try GroupSession.join(welcome: bundle.welcomes[0], store: h.stores[bob]!))
        XCTAssertNil(try h.stores[bob]!.bundle(reference: kp.reference))
    }

    func testWelcomeOnlyAfterPublishConfirmation() throws {
        let h = GroupHarness(seed: 4)
        let alice = try h.createGroup()
        let kp = try h.newKeyPackage(for: h.identity())
        var s = h.sessions[alice]!
        let (bundle, sealed) = try s.createCommit([.add(kp)], rng: h.rng)
        XCTAssertEqual(bundle.pendingWelcomeCount, 1)
        XCTAssertEqual(s.state.epoch, 0, "nothing merges before the publish confirmation")
        let welcomes = try s.confirmPublished(bundle, sealed: sealed, createdAt: 10, eventID: SHA256.hash(sealed))
        XCTAssertEqual(welcomes.count, 1)
        XCTAssertEqual(s.state.epoch, 1)
    }

    func testExporterAndPastEpochWindow() throws {
        let h = GroupHarness(seed: 5)
        let alice = try h.createGroup()
        let bob = h.identity()
        try h.commit(alice, [.add(try h.newKeyPackage(for: bob))])
        let old = try h.sessions[alice]!.encryptApplication([1], rng: h.rng)
        for _ in 0..<5 { try h.commit(alice, [.selfUpdate]) }
        var b = h.sessions[bob]!
        XCTAssertEqual(b.state.epoch, 6)
        XCTAssertEqual(b.decryptableEpochs, [6, 5, 4, 3, 2, 1])
        XCTAssertEqual(try b.receive(old, createdAt: 1, eventID: SHA256.hash(old)), [.application(sender: alice, body: [1], epoch: 1)])
        // One more epoch: epoch 1 falls out of the window.
        let old2 = try h.sessions[alice]!.state.encrypt(h.sessions[alice]!.state.sign(contentType: .application, body: [2]), rng: h.rng)
        h.sessions[bob] = b
        try h.commit(alice, [.selfUpdate])
        b = h.sessions[bob]!
        XCTAssertNoThrow(try b.receive(old2, createdAt: 1, eventID: SHA256.hash(old2)))
        XCTAssertFalse(b.decryptableEpochs.contains(1))
    }
}
