import XCTest
import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitMLS

/// Policy Commits for component 0x800e in the group engine (PROTOCOL §5.14.14;
/// `app-components/group-invite-links-v1.md` "Conformance cases"): enabling, revoking, the
/// rotation an admin change forces, and every receiver refusal, with its negative authorization.
final class MarmotInviteLinksCommitTests: XCTestCase {
    typealias G = MarmotGroup<MLSGroupState>
    let now: Int64 = 1_800_000_000
    let relays = ["wss://relay.example.com"]

    struct Member {
        let key = Secp256k1.PrivateKey()
        let store = MemoryKeyPackageStore()
        var id: [UInt8] { key.publicKey.rawRepresentation }
    }

    func code(_ body: () throws -> Any) -> MLSError.Code? {
        do { _ = try body(); return nil } catch { return (error as? MLSError)?.code }
    }

    func rejection(_ outcomes: [MarmotOutcome]) -> MLSError.Code? {
        if case let .rejected(e)? = outcomes.first { return e.code }
        return nil
    }

    func entry(_ seed: UInt64, mode: InviteLinkV1.ApprovalMode = .manual) throws -> InviteLinkV1 {
        try InviteLinkGeneration.create(name: "g", approvalMode: mode, requestRelays: relays, rng: SeededRandom(seed: seed)).entry
    }

    /// Alice (admin) with Bob and Carol as members, every state at the same epoch.
    func group() throws -> (alice: Member, bob: Member, carol: Member, a: G, b: G, c: G) {
        let alice = Member(), bob = Member(), carol = Member()
        let (_, bundle) = try KeyPackageEvent.create(nostrKey: alice.key, relays: relays, lastResort: false, now: now)
        var a = try G.create(creator: bundle, name: "links", relays: relays, rng: SeededRandom(seed: 3))
        var packages: [ValidatedKeyPackage] = []
        for m in [bob, carol] {
            let (event, b) = try KeyPackageEvent.create(nostrKey: m.key, relays: relays, lastResort: false, now: now)
            try m.store.save(b)
            packages.append(try KeyPackageValidator.validate(event, now: now))
        }
        let pending = try a.commit(adding: packages, now: now)
        let wraps = try a.confirmPublished(pending, acknowledgedBy: relays, wrappingWelcomesFrom: alice.key, now: now)
        let b = try G.join(giftWrap: wraps[0], recipient: bob.key, store: bob.store)
        let c = try G.join(giftWrap: wraps[1], recipient: carol.key, store: carol.store)
        return (alice, bob, carol, a, b, c)
    }

    /// Publishes `pending` from `sender` and has the receivers apply it.
    func publish(_ pending: MarmotPendingCommit<MLSGroupState>, from sender: inout G, _ r1: inout G) throws {
        _ = try sender.confirmPublished(pending, acknowledgedBy: relays, now: now)
        apply(pending, &r1)
    }

    func publish(_ pending: MarmotPendingCommit<MLSGroupState>, from sender: inout G, _ r1: inout G, _ r2: inout G) throws {
        try publish(pending, from: &sender, &r1)
        apply(pending, &r2)
    }

    func apply(_ pending: MarmotPendingCommit<MLSGroupState>, _ receiver: inout G, line: UInt = #line) {
        let outcome = receiver.receive(event: pending.event, now: now)
        guard case .commitApplied? = outcome.first else { return XCTFail("not applied: \(outcome)", line: line) }
    }

    /// An invited claim's evidence (PROTOCOL §5.14.15): another member's retained history holds
    /// the Add by its MLSMessage hash and names the account it added; a wrong hash, or the right
    /// hash with another account, is missing evidence.
    func testRetainedHistoryIsTheEvidenceOfAnInvitedClaim() throws {
        var (_, _, carol, a, b, c) = try group()
        let dave = Member()
        let (event, bundle) = try KeyPackageEvent.create(nostrKey: dave.key, relays: relays, lastResort: false, now: now)
        try dave.store.save(bundle)
        let add = try a.commit(adding: [try KeyPackageValidator.validate(event, now: now)], now: now)
        let hash = try a.commitMessageHash(of: add)
        XCTAssertFalse(b.retainsCommit(hash, adding: dave.id), "nothing before the Add is applied")
        try publish(add, from: &a, &b, &c)
        XCTAssertTrue(b.retainsCommit(hash, adding: dave.id))
        XCTAssertTrue(a.retainsCommit(hash, adding: dave.id), "the committer's own history too")
        XCTAssertFalse(b.retainsCommit(hash, adding: carol.id), "the Add did not add that account")
        XCTAssertFalse(b.retainsCommit(SHA256.hash(hash), adding: dave.id), "no Commit with that hash")
    }

    /// What decides whether an own Add's Welcomes are released (PROTOCOL §5.13, "Welcome hold"):
    /// the retained snapshot for the Commit's epoch names it; a competitor for that epoch is not
    /// held; a Commit not applied yet is not; past the rollback horizon the applied one still is.
    func testTheSelectedBranchHoldsTheAppliedCommitOfItsEpochOnly() throws {
        var (_, _, _, a, b, c) = try group()
        let epoch = a.epoch
        let applied = try a.commit(groupData: renamed(a, "first"), now: now)
        let competitor = try b.commit(now: now) // a self-update: any member may make one
        XCTAssertFalse(b.selectedBranchHolds(commitEventID: applied.event.id, builtOn: epoch), "not applied yet")
        try publish(applied, from: &a, &b, &c)
        for g in [a, b, c] {
            XCTAssertTrue(g.selectedBranchHolds(commitEventID: applied.event.id, builtOn: epoch))
            XCTAssertFalse(g.selectedBranchHolds(commitEventID: competitor.event.id, builtOn: epoch), "the other Commit of that epoch")
        }
        XCTAssertFalse(b.selectedBranchHolds(commitEventID: applied.event.id, builtOn: epoch + 1), "another epoch's snapshot")
        for i in 0..<MarmotProfile.epochLookback + 1 {
            try publish(try a.commit(groupData: renamed(a, "name \(i)"), now: now), from: &a, &b, &c)
        }
        XCTAssertTrue(b.selectedBranchHolds(commitEventID: applied.event.id, builtOn: epoch), "past the horizon nothing replaces it")
        // Past the horizon an id is no longer told apart: the node drops a replaced Add's held
        // Welcomes in the transaction saving the rollback, so no such hold lives that long.
        XCTAssertTrue(b.selectedBranchHolds(commitEventID: competitor.event.id, builtOn: epoch))
    }

    private func renamed(_ g: G, _ name: String) -> MarmotGroupData {
        var data = g.groupData
        data.name = name
        return data
    }

    func testEnablingRequiresTheComponentAndEveryMemberAgrees() throws {
        var (_, _, _, a, b, c) = try group()
        XCTAssertNil(a.inviteLinks)
        let links = try InviteLinksV1(links: [try entry(1)])
        try publish(try a.inviteLinksCommit(links, now: now), from: &a, &b, &c)
        XCTAssertEqual(a.inviteLinks, links)
        XCTAssertEqual(b.inviteLinks, links)
        XCTAssertTrue(b.groupData.requiredComponents.contains(ComponentID.inviteLinks))
        // A second generation beside the first, then a revocation of the first.
        let two = try InviteLinksV1(links: links.links + [try entry(2, mode: .automatic)])
        try publish(try a.inviteLinksCommit(two, now: now), from: &a, &b, &c)
        let revoked = try InviteLinksV1(links: [two.links.first { $0.approvalMode == .automatic }!])
        try publish(try a.inviteLinksCommit(revoked, now: now), from: &a, &b, &c)
        XCTAssertEqual(c.inviteLinks, revoked)
        // An empty replacement disables every link but keeps the feature negotiated.
        try publish(try a.inviteLinksCommit(.empty, now: now), from: &a, &b, &c)
        XCTAssertEqual(b.inviteLinks, .empty)
        XCTAssertTrue(b.groupData.requiredComponents.contains(ComponentID.inviteLinks))
        // The same state again is no Commit.
        XCTAssertEqual(code { try a.inviteLinksCommit(.empty, now: self.now) }, .invalidInviteLinksUpdate)
    }

    func testANonAdminChangeIsRefusedBySenderAndReceivers() throws {
        var (_, _, _, a, b, c) = try group()
        XCTAssertEqual(code { try b.inviteLinksCommit(try InviteLinksV1(links: [try self.entry(1)]), now: self.now) }, .notAdmin)
        var forged = b.groupData
        forged.inviteLinks = try InviteLinksV1(links: [try entry(1)])
        let pending = try b.forgedCommit(groupData: forged, skipping: [.admin], now: now, rng: SystemRandom())
        XCTAssertEqual(rejection(a.receive(event: pending.event, now: now)), .notAdmin)
        XCTAssertEqual(rejection(c.receive(event: pending.event, now: now)), .notAdmin)
        XCTAssertNil(a.inviteLinks)
        _ = b
    }

    func testAnInvalidTransitionIsRefusedBySenderAndReceivers() throws {
        var (_, _, _, a, b, c) = try group()
        let first = try entry(1)
        try publish(try a.inviteLinksCommit(try InviteLinksV1(links: [first]), now: now), from: &a, &b, &c)
        // The same link id with another mode: an entry is immutable.
        let changed = try InviteLinkV1(linkID: first.linkID, inboxPublicKey: first.inboxPublicKey, bearerHash: first.bearerHash,
                                       previewHash: first.previewHash, expiresAt: 0, approvalMode: .automatic)
        XCTAssertEqual(code { try a.inviteLinksCommit(try InviteLinksV1(links: [changed]), now: self.now) }, .invalidInviteLinksUpdate)
        var forged = a.groupData
        forged.inviteLinks = try InviteLinksV1(links: [changed])
        let pending = try a.forgedCommit(groupData: forged, skipping: [.admin], now: now, rng: SystemRandom())
        XCTAssertEqual(rejection(b.receive(event: pending.event, now: now)), .invalidInviteLinksUpdate)
        // Removing the component once enabled is refused by the sender.
        var removed = a.groupData
        removed.inviteLinks = nil
        XCTAssertNotNil(code { try a.commit(groupData: removed, now: self.now) })
        XCTAssertEqual(b.inviteLinks, try InviteLinksV1(links: [first]))
    }

    func testDemotingAnAdminRotatesEveryGeneration() throws {
        var (_, bob, _, a, b, c) = try group()
        var promoted = a.groupData
        promoted.admins.append(bob.id)
        try publish(try a.commit(groupData: promoted, now: now), from: &a, &b, &c)
        let old = try InviteLinksV1(links: [try entry(1), try entry(2)])
        try publish(try a.inviteLinksCommit(old, now: now), from: &a, &b, &c)
        // A forged demotion that keeps the old generations is refused by every receiver.
        var keeping = a.groupData
        keeping.admins.removeAll { $0 == bob.id }
        let forged = try a.forgedCommit(groupData: keeping, skipping: [.admin], now: now, rng: SystemRandom())
        XCTAssertEqual(rejection(c.receive(event: forged.event, now: now)), .invalidInviteLinksUpdate)
        XCTAssertEqual(rejection(b.receive(event: forged.event, now: now)), .invalidInviteLinksUpdate)
        // The engine's own demotion drops them in the same Commit; a fresh generation in it stays.
        var demoted = a.groupData
        demoted.admins.removeAll { $0 == bob.id }
        let fresh = try entry(3)
        demoted.inviteLinks = try InviteLinksV1(links: old.links + [fresh])
        try publish(try a.commit(groupData: demoted, now: now), from: &a, &b, &c)
        XCTAssertEqual(c.inviteLinks, try InviteLinksV1(links: [fresh]))
        XCTAssertFalse(b.isAdmin)
    }

    func testRemovingAnAdminLeafRotatesAndSelfDemotionLeavesNoLinks() throws {
        var (_, bob, carol, a, b, c) = try group()
        var promoted = a.groupData
        promoted.admins += [bob.id, carol.id]
        try publish(try a.commit(groupData: promoted, now: now), from: &a, &b, &c)
        try publish(try a.inviteLinksCommit(try InviteLinksV1(links: [try entry(1)]), now: now), from: &a, &b, &c)
        // Removing admin Carol: the engine retires the generation in the removal Commit.
        let removal = try a.commit(removing: [carol.id], now: now)
        _ = try a.confirmPublished(removal, acknowledgedBy: relays, now: now)
        guard case .commitApplied? = b.receive(event: removal.event, now: now).first else { return XCTFail("removal") }
        XCTAssertEqual(b.inviteLinks, .empty)
        _ = c
        // A later fresh generation by an admin who stays is accepted.
        try publish(try a.inviteLinksCommit(try InviteLinksV1(links: [try entry(2)]), now: now), from: &a, &b)
        // Bob demoting himself while adding replacement links: refused; the engine's own
        // self-demotion leaves the vector empty.
        var selfDemotion = b.groupData
        selfDemotion.admins.removeAll { $0 == bob.id }
        selfDemotion.inviteLinks = try InviteLinksV1(links: [try entry(4)])
        let withReplacement = try b.forgedCommit(groupData: selfDemotion, skipping: [.admin], now: now, rng: SystemRandom())
        XCTAssertEqual(rejection(a.receive(event: withReplacement.event, now: now)), .invalidInviteLinksUpdate)
        var plain = b.groupData
        plain.admins.removeAll { $0 == bob.id }
        try publish(try b.commit(groupData: plain, now: now), from: &b, &a)
        XCTAssertEqual(a.inviteLinks, .empty)
        // Now a non-admin, Bob's SelfRemove-only Commit leaves the component unchanged.
        XCTAssertNoThrow(try b.leaveEvent(now: now))
    }
}
