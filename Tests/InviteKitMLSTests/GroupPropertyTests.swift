import XCTest
import InviteKitCrypto
@testable import InviteKitMLS

final class GroupPropertyTests: XCTestCase {
    /// Five members; alice and bob are admins.
    func makeGroup(seed: UInt64) throws -> (GroupHarness, [[UInt8]]) {
        let h = GroupHarness(seed: seed)
        let alice = try h.createGroup()
        let ids = (0..<4).map { _ in h.identity() }
        try h.commit(alice, [.add(try h.newKeyPackage(for: ids[0]), isAdmin: true)] + (try ids[1...].map { .add(try h.newKeyPackage(for: $0)) }))
        return (h, [alice] + ids)
    }

    /// Competing commits for one epoch plus a follow-up on the winning branch, delivered to every
    /// member in a random order: everyone ends on the winner's branch with one epoch secret.
    func testConvergenceUnderInterleavings() throws {
        var checked = 0
        for seed in UInt64(1)...24 {
            let (h, ids) = try makeGroup(seed: seed)
            let pick = SeededRandom(seed: seed &* 7919)
            let alice = ids[0], bob = ids[1], carol = ids[2]
            let base = h.sessions[alice]!.state.epoch
            var events: [(committer: [UInt8], ev: Delivered, bundle: CommitBundle)] = []
            let plans: [([UInt8], [CommitAction])] = [(alice, [.remove(identity: ids[4])]), (bob, [.selfUpdate]), (carol, [.selfUpdate])]
            for (who, actions) in plans {
                let (bundle, sealed) = try h.sessions[who]!.createCommit(actions, rng: h.rng)
                let t = Int64(100 + pick.uniform(2))  // ties happen: then the smallest id wins
                events.append((who, Delivered(sealed: sealed, createdAt: t, eventID: SHA256.hash(sealed)), bundle))
            }
            // Each committer merges its own commit first (it believes it won).
            for e in events {
                var s = h.sessions[e.committer]!
                _ = try s.confirmPublished(e.bundle, sealed: e.ev.sealed, createdAt: e.ev.createdAt, eventID: e.ev.eventID)
                h.sessions[e.committer] = s
            }
            let winner = events.min { CommitOrder(createdAt: $0.ev.createdAt, eventID: $0.ev.eventID) < CommitOrder(createdAt: $1.ev.createdAt, eventID: $1.ev.eventID) }!
            // The winner follows up on its branch (epoch base+1 -> base+2).
            let (follow, followSealed) = try h.sessions[winner.committer]!.createCommit([.selfUpdate], rng: h.rng)
            let followEv = Delivered(sealed: followSealed, createdAt: 200, eventID: SHA256.hash(followSealed))
            var w = h.sessions[winner.committer]!
            _ = try w.confirmPublished(follow, sealed: followSealed, createdAt: 200, eventID: followEv.eventID)
            h.sessions[winner.committer] = w

            let all = events.map { ($0.committer, $0.ev) } + [(winner.committer, followEv)]
            for id in ids {
                var s = h.sessions[id]!
                var order = all.filter { $0.0 != id || $0.1.eventID != followEv.eventID }
                for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, Int(pick.uniform(UInt32(i + 1)))) }
                for (_, ev) in order {
                    if ev.eventID == followEv.eventID && id == winner.committer { continue }
                    _ = try? s.receive(ev.sealed, createdAt: ev.createdAt, eventID: ev.eventID)
                }
                h.sessions[id] = s
            }
            let removedByWinner = winner.committer == alice
            let expectedMembers = removedByWinner ? ids.dropLast() : ids[...]
            let fps = Set(expectedMembers.map { h.sessions[$0]!.state.epochFingerprint })
            XCTAssertEqual(fps.count, 1, "seed \(seed): members diverged")
            for id in expectedMembers { XCTAssertEqual(h.sessions[id]!.state.epoch, base + 2, "seed \(seed)") }
            if removedByWinner { XCTAssertFalse(h.sessions[ids[4]]!.isMember) }
            checked += 1
        }
        XCTAssertEqual(checked, 24)
    }

    /// Several rounds of competing commits (removals and updates by admins, updates by anyone),
    /// each round delivered to every member in its own random order, with late members catching
    /// up through the pending buffer: after every round all members share one epoch secret.
    func testMultiRoundCompetingCommitsConverge() throws {
        for seed in UInt64(300)..<308 {
            let (h, ids) = try makeGroup(seed: seed)
            let pick = SeededRandom(seed: seed)
            var clock: Int64 = 1000
            for round in 0..<3 {
                let active = ids.filter { h.sessions[$0]!.isMember }
                let committers = Array(active.shuffledDeterministically(pick).prefix(2 + Int(pick.uniform(2))))
                var events: [Delivered] = []
                for c in committers {
                    var s = h.sessions[c]!
                    let isAdmin = s.state.ownMember.isAdmin
                    let victims = active.filter { $0 != c && $0 != ids[0] && $0 != ids[1] }
                    let actions: [CommitAction] = isAdmin && !victims.isEmpty && pick.uniform(2) == 0
                        ? [.remove(identity: victims[Int(pick.uniform(UInt32(victims.count)))])] : [.selfUpdate]
                    let (bundle, sealed) = try s.createCommit(actions, rng: h.rng)
                    clock += Int64(pick.uniform(3))
                    let ev = Delivered(sealed: sealed, createdAt: clock, eventID: SHA256.hash(sealed))
                    _ = try s.confirmPublished(bundle, sealed: sealed, createdAt: ev.createdAt, eventID: ev.eventID)
                    h.sessions[c] = s
                    events.append(ev)
                }
                for id in active {
                    var s = h.sessions[id]!
                    for ev in events.shuffledDeterministically(pick) { _ = try? s.receive(ev.sealed, createdAt: ev.createdAt, eventID: ev.eventID) }
                    h.sessions[id] = s
                }
                let members = active.filter { h.sessions[$0]!.isMember }
                XCTAssertEqual(Set(members.map { h.sessions[$0]!.state.epochFingerprint }).count, 1, "seed \(seed) round \(round)")
                let roster = Set(h.sessions[members[0]]!.state.members.map(\.identity))
                XCTAssertEqual(roster, Set(members), "seed \(seed) round \(round): roster and sessions disagree")
                clock += 10
            }
        }
    }

    /// Random operation sequences: after each step every member agrees and only members read.
    func testRandomHistoriesConvergeAndOnlyMembersRead() throws {
        for seed in UInt64(100)..<106 {
            let h = GroupHarness(seed: seed)
            let pick = SeededRandom(seed: seed)
            let admin = try h.createGroup()
            var outsiders: [[UInt8]] = []
            for _ in 0..<25 {
                let active = h.activeMembers.sorted { $0.lexicographicallyPrecedes($1) }
                switch pick.uniform(4) {
                case 0, 1:
                    let n = h.identity()
                    try h.commit(admin, [.add(try h.newKeyPackage(for: n, lastResort: pick.uniform(2) == 0))])
                case 2 where active.count > 2:
                    let victim = active.filter { $0 != admin }[Int(pick.uniform(UInt32(active.count - 1)))]
                    try h.commit(admin, [.remove(identity: victim)])
                    outsiders.append(victim)
                default:
                    let who = active[Int(pick.uniform(UInt32(active.count)))]
                    try h.commit(who, [.selfUpdate])
                }
                h.assertConverged()
                let sender = h.activeMembers.first!
                let msg = try h.sessions[sender]!.encryptApplication([7, 7], rng: h.rng)
                for id in h.activeMembers where id != sender {
                    var s = h.sessions[id]!
                    XCTAssertEqual(try s.receive(msg, createdAt: h.clock, eventID: SHA256.hash(msg)),
                                   [.application(sender: sender, body: [7, 7], epoch: s.state.epoch)])
                    h.sessions[id] = s
                }
                for o in outsiders {
                    XCTAssertNil(h.sessions[o]!.state.decrypt(msg), "removed member read a later message")
                }
            }
        }
    }

    func testRemovedMemberCannotReadLaterMessages() throws {
        let (h, ids) = try makeGroup(seed: 50)
        try h.commit(ids[0], [.remove(identity: ids[3])])
        var removed = h.sessions[ids[3]]!
        XCTAssertFalse(removed.isMember)
        let msg = try h.sessions[ids[0]]!.encryptApplication([1], rng: h.rng)
        XCTAssertThrowsError(try removed.receive(msg, createdAt: 1, eventID: SHA256.hash(msg))) {
            XCTAssertEqual(($0 as? GroupError)?.code, .notAMember)
        }
        // Even with its last state's secrets the key does not open the new epoch.
        XCTAssertNil(removed.state.decrypt(msg))
        XCTAssertNotEqual(removed.state.epochFingerprint, h.sessions[ids[0]]!.state.epochFingerprint)
    }

    func testJoinerCannotReadEarlierMessages() throws {
        let (h, ids) = try makeGroup(seed: 51)
        let before = try h.sessions[ids[1]]!.encryptApplication([5], rng: h.rng)
        let newcomer = h.identity()
        try h.commit(ids[0], [.add(try h.newKeyPackage(for: newcomer))])
        var s = h.sessions[newcomer]!
        XCTAssertThrowsError(try s.receive(before, createdAt: 1, eventID: SHA256.hash(before))) {
            XCTAssertEqual(($0 as? GroupError)?.code, .undecryptable)
        }
        XCTAssertEqual(s.decryptableEpochs, [s.state.epoch])
        let after = try h.sessions[ids[1]]!.encryptApplication([6], rng: h.rng)
        XCTAssertEqual(try s.receive(after, createdAt: 2, eventID: SHA256.hash(after)), [.application(sender: ids[1], body: [6], epoch: s.state.epoch)])
    }

    func code(_ body: () throws -> Any) -> GroupError.Code? {
        do { _ = try body(); return nil } catch { return (error as? GroupError)?.code }
    }

    func testForgedCommitRejected() throws {
        let (h, ids) = try makeGroup(seed: 52)
        let st = h.sessions[ids[0]]!.state
        var pt = try st.createCommit([.selfUpdate], rng: h.rng).plaintext
        pt.signature[5] ^= 0x10
        var bob = h.sessions[ids[1]]!
        let sealed = try st.encrypt(pt, rng: h.rng)
        XCTAssertEqual(code { try bob.receive(sealed, createdAt: 1, eventID: SHA256.hash(sealed)) }, .forged)
        // A signature by another member's key under the admin's index is forged too.
        var pt2 = try st.createCommit([.selfUpdate], rng: h.rng).plaintext
        pt2.signature = h.sessions[ids[2]]!.state.sign(contentType: .commit, body: pt2.body).signature
        XCTAssertEqual(code { try bob.state.processCommit(pt2) }, .forged)
        // Tampered confirmation tag.
        var pt3 = try st.createCommit([.selfUpdate], rng: h.rng).plaintext
        pt3.confirmationTag[0] ^= 1
        XCTAssertEqual(code { try bob.state.processCommit(pt3) }, .invalidConfirmationTag)
    }

    func testNonAdminCommitRejected() throws {
        let (h, ids) = try makeGroup(seed: 53)
        let carol = ids[2]
        XCTAssertEqual(code { try h.sessions[carol]!.createCommit([.remove(identity: ids[3])], rng: h.rng) }, .notAdmin)
        // Carol lies to herself about being an admin; receivers still refuse.
        var fake = h.sessions[carol]!.state
        fake.members[fake.ownIndex].isAdmin = true
        let bundle = try fake.createCommit([.remove(identity: ids[3])], rng: h.rng)
        let sealed = try fake.encrypt(bundle.plaintext, rng: h.rng)
        var alice = h.sessions[ids[0]]!
        XCTAssertEqual(code { try alice.receive(sealed, createdAt: 1, eventID: SHA256.hash(sealed)) }, .notAdmin)
        // A self-update by a non-admin is fine.
        XCTAssertNoThrow(try h.commit(carol, [.selfUpdate]))
        // Self-update plus an add is not.
        XCTAssertEqual(code { try h.sessions[carol]!.createCommit([.selfUpdate, .add(try h.newKeyPackage(for: h.identity()))], rng: h.rng) }, .notAdmin)
    }

    func testWrongEpochCommitRejected() throws {
        let (h, ids) = try makeGroup(seed: 54)
        let st = h.sessions[ids[0]]!.state
        var pt = try st.createCommit([.selfUpdate], rng: h.rng).plaintext
        pt.epoch += 1
        var bob = h.sessions[ids[1]]!
        XCTAssertEqual(code { try bob.state.processCommit(pt) }, .wrongEpoch)
        let sealed = try st.encrypt(pt, rng: h.rng)
        XCTAssertEqual(code { try bob.receive(sealed, createdAt: 1, eventID: SHA256.hash(sealed)) }, .wrongEpoch)
    }

    func testReplayedAndSupersededCommitsRejected() throws {
        let (h, ids) = try makeGroup(seed: 55)
        let late = try h.sessions[ids[1]]!.createCommit([.selfUpdate], rng: h.rng)
        let ev = try h.commit(ids[0], [.selfUpdate])
        var carol = h.sessions[ids[2]]!
        XCTAssertEqual(code { try carol.receive(ev.sealed, createdAt: ev.createdAt, eventID: ev.eventID) }, .replay)
        // Bob's commit for the same epoch is later: superseded.
        XCTAssertEqual(code { try carol.receive(late.sealed, createdAt: ev.createdAt + 10, eventID: SHA256.hash(late.sealed)) }, .superseded)
        // Bob's own publish confirmation now reports that his commit lost: no Welcome is released.
        var bob = h.sessions[ids[1]]!
        XCTAssertEqual(code { try bob.confirmPublished(late.bundle, sealed: late.sealed, createdAt: ev.createdAt + 10, eventID: SHA256.hash(late.sealed)) },
                       .superseded)
    }

    /// A commit built on a branch that a rollback replaced must not be merged, even though its
    /// epoch number matches the current one.
    func testOwnCommitOnAbandonedBranchIsSuperseded() throws {
        let (h, ids) = try makeGroup(seed: 57)
        let alice = ids[0], bob = ids[1]
        var a = h.sessions[alice]!
        // Bob's commit for epoch n (early) and alice's for epoch n (late).
        let (bobBundle, bobSealed) = try h.sessions[bob]!.createCommit([.selfUpdate], rng: h.rng)
        let (aBundle, aSealed) = try a.createCommit([.selfUpdate], rng: h.rng)
        _ = try a.confirmPublished(aBundle, sealed: aSealed, createdAt: 200, eventID: SHA256.hash(aSealed))
        // Alice builds on her branch (epoch n+1) but has not confirmed yet.
        let (next, nextSealed) = try a.createCommit([.selfUpdate], rng: h.rng)
        // Bob's better commit arrives: alice rolls back to bob's branch, now also at epoch n+1.
        XCTAssertEqual(try a.receive(bobSealed, createdAt: 100, eventID: SHA256.hash(bobSealed)).first,
                       .rolledBack(toEpoch: bobBundle.baseEpoch, nowAt: bobBundle.baseEpoch + 1))
        XCTAssertEqual(a.state.epoch, next.baseEpoch)
        XCTAssertEqual(code { try a.confirmPublished(next, sealed: nextSealed, createdAt: 300, eventID: SHA256.hash(nextSealed)) }, .superseded)
        var b = h.sessions[bob]!
        _ = try b.confirmPublished(bobBundle, sealed: bobSealed, createdAt: 100, eventID: SHA256.hash(bobSealed))
        XCTAssertEqual(a.state.epochFingerprint, b.state.epochFingerprint)
    }

    func testEpochOutsideWindowRejected() throws {
        let (h, ids) = try makeGroup(seed: 56)
        let stale = try h.sessions[ids[1]]!.createCommit([.selfUpdate], rng: h.rng)
        for _ in 0..<6 { try h.commit(ids[0], [.selfUpdate]) }
        var carol = h.sessions[ids[2]]!
        // Epoch too old: no key left to open it, so it is buffered as undecryptable.
        XCTAssertEqual(code { try carol.receive(stale.sealed, createdAt: 0, eventID: SHA256.hash(stale.sealed)) }, .undecryptable)
    }
}

extension Array {
    func shuffledDeterministically(_ rng: SeededRandom) -> [Element] {
        var a = self
        for i in stride(from: a.count - 1, to: 0, by: -1) { a.swapAt(i, Int(rng.uniform(UInt32(i + 1)))) }
        return a
    }
}
