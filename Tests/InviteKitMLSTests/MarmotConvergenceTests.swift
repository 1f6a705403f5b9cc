import XCTest
import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitMLS

/// Convergence v1 in current-profile groups (PROTOCOL §5.13): forks are decided by the spec's
/// branch order, never by `created_at`, event ids or arrival order, and alike after a restart.
final class MarmotConvergenceTests: XCTestCase {
    typealias G = MarmotGroup<MLSGroupState>
    let now: Int64 = 1_800_000_000
    let relays = ["wss://relay.example.com"]

    struct Member {
        let key: Secp256k1.PrivateKey
        let store = MemoryKeyPackageStore()
        var id: [UInt8] { key.publicKey.rawRepresentation }
    }

    /// `members[0]` creates a current-profile group with the others, then makes `admins` admins;
    /// returns every member's group at the same epoch, creator first.
    func group(_ members: [Member], admins: Set<Int>) throws -> [G] {
        let ada = members[0]
        let (_, bundle) = try KeyPackageEvent.create(nostrKey: ada.key, relays: relays, lastResort: false, now: now)
        var a = try G.create(creator: bundle, name: "g", relays: relays, rng: SeededRandom(seed: 3))
        let kps = try members.dropFirst().map { m -> ValidatedKeyPackage in
            let (event, b) = try KeyPackageEvent.create(nostrKey: m.key, relays: relays, lastResort: false, now: now)
            try m.store.save(b)
            return try KeyPackageValidator.validate(event, now: now)
        }
        let add = try a.commit(adding: kps, now: now)
        let wraps = try a.confirmPublished(add, acknowledgedBy: relays, wrappingWelcomesFrom: ada.key, now: now)
        var groups = [a] + (try zip(members.dropFirst(), wraps).map { try G.join(giftWrap: $1, recipient: $0.key, store: $0.store) })
        var data = groups[0].groupData
        data.admins = members.indices.filter { $0 == 0 || admins.contains($0) }.map { members[$0].id }
        let promote = try groups[0].commit(groupData: data, now: now)
        _ = try groups[0].confirmPublished(promote, acknowledgedBy: relays, now: now)
        for i in groups.indices.dropFirst() {
            guard case .commitApplied? = groups[i].receive(event: promote.event, now: now).first else { throw XCTSkip("promotion not applied") }
        }
        return groups
    }

    /// `n` members with fresh keys; tests find which sorts first where it matters.
    func members(_ n: Int) -> [Member] {
        (0..<n).map { _ in Member(key: Secp256k1.PrivateKey()) }
    }

    /// The two admins' competing renames of one epoch: `low` is the index whose key sorts first
    /// (the committer rule's winner), `high` the other; `lowAt`/`highAt` date them.
    func renames(_ ms: [Member], _ g: [G], lowAt: Int64, highAt: Int64) throws
        -> (low: Int, high: Int, lowCommit: MarmotPendingCommit<MLSGroupState>, highCommit: MarmotPendingCommit<MLSGroupState>) {
        let low = ms[0].id.lexicographicallyPrecedes(ms[1].id) ? 0 : 1, high = 1 - low
        return (low, high, try g[low].commit(groupData: renamed(g[low], "low"), now: lowAt),
                try g[high].commit(groupData: renamed(g[high], "high"), now: highAt))
    }

    func renamed(_ g: G, _ name: String) -> MarmotGroupData {
        var d = g.groupData
        d.name = name
        return d
    }

    /// Two admins rename the group in one epoch, the higher key with the earlier `created_at`.
    /// A third member ends on the lower key's branch whichever arrives first, and both committers
    /// end there too: the timestamps decide nothing.
    func testSameEpochForkGoesToTheLowerCommitterWhateverTheTimestamps() throws {
        let ms = members(3)
        var g = try group(ms, admins: [1])
        let (low, high, lowCommit, highCommit) = try renames(ms, g, lowAt: now + 100, highAt: now + 1)  // high's is earlier
        _ = try g[low].confirmPublished(lowCommit, acknowledgedBy: relays, now: now + 100)
        _ = try g[high].confirmPublished(highCommit, acknowledgedBy: relays, now: now + 1)

        var first = g[2], second = g[2]
        _ = first.receive(event: lowCommit.event, now: now + 200)
        XCTAssertEqual(first.receive(event: highCommit.event, now: now + 200).first.map(kind), "superseded")
        _ = second.receive(event: highCommit.event, now: now + 200)
        XCTAssertEqual(second.receive(event: lowCommit.event, now: now + 200).first.map(kind), "rolledBack")
        XCTAssertEqual(second.lastConvergenceDecision?.decisiveRule, .tipCommitter)
        _ = g[high].receive(event: lowCommit.event, now: now + 200)
        XCTAssertEqual(g[low].receive(event: highCommit.event, now: now + 200).first.map(kind), "superseded")
        for x in [first, second, g[low], g[high]] { XCTAssertEqual(x.groupData.name, "low") }
        XCTAssertEqual(Set([first, second, g[low], g[high]].map { exporter($0) }).count, 1, "one epoch secret")
    }

    /// A pass's frozen batch is handed over winner first (PROTOCOL §5.13, "Passes"): the member
    /// then applies the selected commit and finds the other superseded, never applying a commit
    /// and rolling it back, and ends on the state either arrival order gives.
    func testAFrozenBatchIsResolvedWinnerFirst() throws {
        let ms = members(3)
        var g = try group(ms, admins: [1])
        let (low, high, lowCommit, highCommit) = try renames(ms, g, lowAt: now + 100, highAt: now + 1)
        _ = try g[low].confirmPublished(lowCommit, acknowledgedBy: relays, now: now + 100)
        _ = try g[high].confirmPublished(highCommit, acknowledgedBy: relays, now: now + 1)
        let member = g[2]
        let order = member.resolutionOrder(of: [highCommit.event, lowCommit.event], now: now + 200)
        XCTAssertEqual(order.map(\.id), [lowCommit.event.id, highCommit.event.id], "the committer rule's winner comes first")
        XCTAssertEqual(member.epoch, g[low].epoch - 1, "the order is found on a copy: the member itself is unchanged")
        var ordered = member, arrival = member
        let outcomes = order.flatMap { ordered.receive(event: $0, now: now + 200) }.map(kind)
        XCTAssertEqual(outcomes, ["commitApplied", "superseded"])
        let arrivalOutcomes = [highCommit.event, lowCommit.event].flatMap { arrival.receive(event: $0, now: now + 200) }.map(kind)
        XCTAssertEqual(arrivalOutcomes, ["commitApplied", "rolledBack"], "in arrival order the loser would have been shown first")
        XCTAssertEqual(ordered.groupData.name, "low")
        XCTAssertEqual(exporter(ordered), exporter(arrival))
        XCTAssertEqual(member.resolutionOrder(of: [highCommit.event], now: now).map(\.id), [highCommit.event.id])
    }

    /// The higher key's branch wins when two members wrote on it: witness quorum adds a commit of
    /// depth, more than the committer rule can take back.
    func testWitnessQuorumBeatsTheCommitterRule() throws {
        let ms = members(4)
        var g = try group(ms, admins: [1])
        let (low, high, lowCommit, highCommit) = try renames(ms, g, lowAt: now + 10, highAt: now + 10)
        _ = try g[high].confirmPublished(highCommit, acknowledgedBy: relays, now: now + 10)
        _ = try g[low].confirmPublished(lowCommit, acknowledgedBy: relays, now: now + 10)
        // Members 2 and 3 take the high branch and write on it; the high committer writes too.
        XCTAssertEqual(g[2].receive(event: highCommit.event, now: now + 20).first.map(kind), "commitApplied")
        XCTAssertEqual(g[3].receive(event: highCommit.event, now: now + 20).first.map(kind), "commitApplied")
        let w1 = try g[2].message(EventTemplate(kind: 9, content: "on high"), now: now + 30)
        let w2 = try g[3].message(EventTemplate(kind: 9, content: "on high too"), now: now + 30)
        XCTAssertEqual(g[2].receive(event: w2, now: now + 30).first.map(kind), "message")
        XCTAssertEqual(g[3].receive(event: w1, now: now + 30).first.map(kind), "message")
        // The low committer sees the witnesses first (buffered: its key is the low branch's),
        // then the high commit: the high branch wins on effective depth.
        for w in [w1, w2] { XCTAssertEqual(g[low].receive(event: w, now: now + 40).first.map(kind), "buffered") }
        let outcomes = g[low].receive(event: highCommit.event, now: now + 40)
        XCTAssertEqual(outcomes.first.map(kind), "rolledBack")
        XCTAssertEqual(g[low].lastConvergenceDecision?.decisiveRule, .effectiveCommitDepth)
        XCTAssertEqual(g[low].lastConvergenceDecision?.witnessQuorumMet, true)
        XCTAssertEqual(outcomes.compactMap { if case let .message(e, _) = $0 { return e.content } else { return nil } }.sorted(),
                       ["on high", "on high too"], "the witnesses are delivered on the winning branch")
        // Members on the high branch keep it when the low commit arrives: the same decision.
        XCTAssertEqual(g[2].receive(event: lowCommit.event, now: now + 50).first.map(kind), "superseded")
        XCTAssertEqual(g[low].groupData.name, "high")
    }

    /// Losing a fork is not final: the low committer first keeps its own branch (committer
    /// rule, nobody has written on either), then a witness of the high branch arrives and the
    /// same fork is decided again, for the high branch (a witness score of 1 against 0), as a
    /// member that saw everything at once decides.
    func testALosingBranchWinsWhenItsWitnessArrivesLater() throws {
        let ms = members(4)
        var g = try group(ms, admins: [1])
        let (low, high, lowCommit, highCommit) = try renames(ms, g, lowAt: now + 10, highAt: now + 10)
        _ = try g[high].confirmPublished(highCommit, acknowledgedBy: relays, now: now + 10)
        _ = try g[low].confirmPublished(lowCommit, acknowledgedBy: relays, now: now + 10)
        for i in [2, 3] { _ = g[i].receive(event: highCommit.event, now: now + 20) }
        let w1 = try g[2].message(EventTemplate(kind: 9, content: "w1"), now: now + 30)
        let w2 = try g[3].message(EventTemplate(kind: 9, content: "w2"), now: now + 30)
        var atOnce = g[low]
        XCTAssertEqual(g[low].receive(event: highCommit.event, now: now + 40).first.map(kind), "superseded")
        XCTAssertEqual(g[low].lastConvergenceDecision?.decisiveRule, .tipCommitter)
        let outcomes = g[low].receive(event: w1, now: now + 40)
        XCTAssertEqual(outcomes.map(kind), ["buffered", "rolledBack", "message"])
        XCTAssertEqual(g[low].lastConvergenceDecision?.decisiveRule, .appWitnessScore)
        XCTAssertEqual(g[low].groupData.name, "high")
        XCTAssertEqual(g[low].receive(event: w2, now: now + 40).first.map(kind), "message")
        // The member that gets the witness before the commit decides the same.
        _ = atOnce.receive(event: w1, now: now + 40)
        XCTAssertEqual(atOnce.receive(event: highCommit.event, now: now + 40).first.map(kind), "rolledBack")
        XCTAssertEqual(exporter(atOnce), exporter(g[low]))
    }

    /// A removal (privileged) beats the removed member's self-update (ordinary) on priority,
    /// even when her commit is dated earlier and her key sorts first.
    func testRemovalBeatsTheRemovedMembersSelfUpdate() throws {
        let ms = members(3)
        var g = try group(ms, admins: [])
        let removal = try g[0].commit(removing: [ms[1].id], now: now + 100)
        let comeback = try g[1].selfUpdate(now: now - 1000)
        _ = try g[0].confirmPublished(removal, acknowledgedBy: relays, now: now + 100)
        _ = try g[1].confirmPublished(comeback, acknowledgedBy: relays, now: now - 1000)
        _ = g[2].receive(event: comeback.event, now: now + 200)
        XCTAssertEqual(g[2].receive(event: removal.event, now: now + 200).first.map(kind), "rolledBack")
        XCTAssertEqual(g[2].lastConvergenceDecision?.decisiveRule, .tipPriority)
        XCTAssertFalse(g[2].state.memberIdentities.contains(ms[1].id))
        XCTAssertEqual(g[0].receive(event: comeback.event, now: now + 200).first.map(kind), "superseded")
    }

    /// The facts a fork is decided on (digests, priorities, witnesses) are stored: a member that
    /// restarts between the two commits decides as one that did not.
    func testAForkAfterARestartIsDecidedAlike() throws {
        let ms = members(4)
        var g = try group(ms, admins: [1])
        let (low, high, lowCommit, highCommit) = try renames(ms, g, lowAt: now + 10, highAt: now + 10)
        _ = try g[high].confirmPublished(highCommit, acknowledgedBy: relays, now: now + 10)
        _ = try g[low].confirmPublished(lowCommit, acknowledgedBy: relays, now: now + 10)
        _ = g[3].receive(event: highCommit.event, now: now + 20)
        let w = try g[3].message(EventTemplate(kind: 9, content: "w"), now: now + 20)
        _ = g[high].receive(event: w, now: now + 20)
        var kept = g[2]
        _ = kept.receive(event: highCommit.event, now: now + 20)
        XCTAssertEqual(kept.receive(event: w, now: now + 20).first.map(kind), "message")
        var restarted = try G(serialized: kept.serialized())
        XCTAssertEqual(restarted.serialized().exportBytes(), kept.serialized().exportBytes())
        let a = kept.receive(event: lowCommit.event, now: now + 30).first.map(kind)
        let b = restarted.receive(event: lowCommit.event, now: now + 30).first.map(kind)
        XCTAssertEqual(a, b)
        XCTAssertEqual(kept.lastConvergenceDecision, restarted.lastConvergenceDecision)
        XCTAssertEqual(kept.groupData.name, restarted.groupData.name)
    }

    /// Both committers applied the other's commit before their own relay's OK: each OK makes
    /// the own commit a candidate, the same rule decides, and both end on the lower key's branch
    /// (the loser's confirm is `stale_commit`, the winner's replaces the branch it was on).
    func testAnOwnCommitConfirmedLateIsACandidateToo() throws {
        let ms = members(3)
        var g = try group(ms, admins: [1])
        let (low, high, lowCommit, highCommit) = try renames(ms, g, lowAt: now + 10, highAt: now + 10)
        XCTAssertEqual(g[low].receive(event: highCommit.event, now: now + 20).first.map(kind), "commitApplied")
        XCTAssertEqual(g[high].receive(event: lowCommit.event, now: now + 20).first.map(kind), "commitApplied")
        XCTAssertNoThrow(try g[low].confirmPublished(lowCommit, acknowledgedBy: relays, now: now + 30))
        XCTAssertThrowsError(try g[high].confirmPublished(highCommit, acknowledgedBy: relays, now: now + 30)) {
            XCTAssertEqual(($0 as? MLSError)?.code, .staleCommit)
        }
        XCTAssertEqual(g[2].receive(event: highCommit.event, now: now + 40).first.map(kind), "commitApplied")
        XCTAssertEqual(g[2].receive(event: lowCommit.event, now: now + 40).first.map(kind), "rolledBack")
        for x in [g[0], g[1], g[2]] { XCTAssertEqual(x.groupData.name, "low") }
        XCTAssertEqual(Set(g.map { exporter($0) }).count, 1, "one epoch secret")
        // The pending commit keeps its priority across storage.
        let stored = try MarmotPendingCommit<MLSGroupState>(serialized: highCommit.serialized())
        XCTAssertEqual(stored.priority, .privileged)
        XCTAssertEqual(try MarmotPendingCommit<MLSGroupState>(serialized: g[2].selfUpdate(now: now).serialized()).priority, .ordinary)
    }

    /// The committer whose own commit lost at its relay's OK (it had applied the other commit
    /// first) still follows its branch when a witness for it arrives later, as a member that
    /// received that commit would: the own candidate counts buffered witnesses and is kept, not
    /// dropped. Without this the three members ended on two branches.
    func testALosingOwnCommitIsRevivedByALaterWitness() throws {
        let ms = members(3)
        var g = try group(ms, admins: [1])
        let (low, high, lowCommit, highCommit) = try renames(ms, g, lowAt: now + 10, highAt: now + 10)
        // The high committer applies the low commit before its own OK: its own loses, for now.
        XCTAssertEqual(g[high].receive(event: lowCommit.event, now: now + 20).first.map(kind), "commitApplied")
        XCTAssertThrowsError(try g[high].confirmPublished(highCommit, acknowledgedBy: relays, now: now + 20)) {
            XCTAssertEqual(($0 as? MLSError)?.code, .staleCommit)
        }
        XCTAssertEqual(g[high].groupData.name, "low")
        // Fay takes the high commit first and writes on its branch: a witness for it.
        XCTAssertEqual(g[2].receive(event: highCommit.event, now: now + 20).first.map(kind), "commitApplied")
        let w = try g[2].message(EventTemplate(kind: 9, content: "on high"), now: now + 30)
        XCTAssertEqual(g[2].receive(event: lowCommit.event, now: now + 40).first.map(kind), "superseded")
        XCTAssertEqual(g[2].lastConvergenceDecision?.decisiveRule, .appWitnessScore)
        // The low committer keeps the received high commit as a loser, and the witness revives it.
        _ = try g[low].confirmPublished(lowCommit, acknowledgedBy: relays, now: now + 20)
        XCTAssertEqual(g[low].receive(event: highCommit.event, now: now + 40).first.map(kind), "superseded")
        XCTAssertEqual(g[low].receive(event: w, now: now + 40).map(kind), ["buffered", "rolledBack", "message"])
        // The high committer revives its own commit the same way.
        XCTAssertEqual(g[high].receive(event: w, now: now + 40).map(kind), ["buffered", "rolledBack", "message"])
        for x in g { XCTAssertEqual(x.groupData.name, "high") }
        XCTAssertEqual(Set(g.map { exporter($0) }).count, 1, "one epoch secret")
    }

    func kind(_ o: MarmotOutcome) -> String {
        switch o {
        case .message: "message"
        case .commitApplied: "commitApplied"
        case .rolledBack: "rolledBack"
        case .superseded: "superseded"
        case .leaveRequest: "leaveRequest"
        case .removed: "removed"
        case .duplicate: "duplicate"
        case .buffered: "buffered"
        case .evicted: "evicted"
        case .rejected(let e): "rejected \(e.code.rawValue)"
        }
    }

    func exporter(_ g: G) -> [UInt8] {
        g.state.exporter(label: "test", context: [], length: 32).withUnsafeBytes { Array($0) }
    }
}

/// ``BranchSelector`` alone: the spec's order, eligibility, and the rule it reports.
final class BranchSelectorTests: XCTestCase {
    func candidate(_ id: String, fork: UInt64 = 1, tip: UInt64 = 2, priority: CommitPriority = .privileged, committer: UInt8 = 1,
                   digest: UInt8 = 1, witnesses: [(UInt64, UInt8)] = []) -> BranchCandidate {
        BranchCandidate(id: id, forkEpoch: fork, tipEpoch: tip, tipPriority: priority, tipCommitter: [UInt8](repeating: committer, count: 32),
                        tipDigest: [UInt8](repeating: digest, count: 32), witnesses: witnesses.map { .init(epoch: $0.0, sender: [UInt8](repeating: $0.1, count: 32)) })
    }

    func testEachRuleDecidesInTurn() {
        func pick(_ a: BranchCandidate, _ b: BranchCandidate) -> (String?, BranchSelectionRule?) {
            let d = BranchSelector.select([a, b], passBaseEpoch: 2)
            let e = BranchSelector.select([b, a], passBaseEpoch: 2)
            XCTAssertEqual(d.selected?.id, e.selected?.id, "input order must not matter")
            return (d.selected?.id, d.decisiveRule)
        }
        XCTAssertTrue(pick(candidate("deep", tip: 3), candidate("x")) == ("deep", .effectiveCommitDepth))
        XCTAssertTrue(pick(candidate("q", witnesses: [(2, 7), (2, 8)]), candidate("x", tip: 3)) == ("q", .witnessQuorumMet))
        XCTAssertTrue(pick(candidate("w", witnesses: [(2, 7)]), candidate("x")) == ("w", .appWitnessScore))
        XCTAssertTrue(pick(candidate("p"), candidate("o", priority: .ordinary, committer: 0)) == ("p", .tipPriority))
        XCTAssertTrue(pick(candidate("c", committer: 2, digest: 0), candidate("d", committer: 3)) == ("c", .tipCommitter))
        XCTAssertTrue(pick(candidate("g", digest: 2), candidate("h", digest: 3)) == ("g", .tipDigest))
    }

    func testQuorumBoostIsBoundedAndWitnessesOutsideTheBranchDoNotCount() {
        // Quorum (2 senders at epoch 2) adds 1: depth 2 ties a 2-deep branch, then quorum decides.
        let d = BranchSelector.select([candidate("q", witnesses: [(2, 7), (2, 8)]), candidate("deep", tip: 3)], passBaseEpoch: 3)
        XCTAssertEqual(d.selected?.id, "q")
        XCTAssertEqual(d.decisiveRule, .witnessQuorumMet)
        // A 3-deep branch beats quorum: the boost is 1.
        XCTAssertEqual(BranchSelector.select([candidate("q", witnesses: [(2, 7), (2, 8)]), candidate("deeper", tip: 4)], passBaseEpoch: 4).selected?.id,
                       "deeper")
        // The same sender twice, or witnesses at the fork epoch, count nothing extra.
        let s = BranchScore(candidate("s", witnesses: [(2, 7), (2, 7), (1, 8), (3, 9)]), policy: .v1)
        XCTAssertEqual(s.appWitnessScore, 1)
        XCTAssertFalse(s.witnessQuorumMet)
    }

    func testBranchesBeyondTheRewindHorizonAreNotSelected() {
        let d = BranchSelector.select([candidate("old", fork: 1, tip: 9)], passBaseEpoch: 7)
        XCTAssertNil(d.selected)
        XCTAssertEqual(d.candidateCount, 1)
        XCTAssertEqual(BranchSelector.select([candidate("old", fork: 1, tip: 9), candidate("new", fork: 2, tip: 3)], passBaseEpoch: 7).selected?.id,
                       "new")
    }
}
