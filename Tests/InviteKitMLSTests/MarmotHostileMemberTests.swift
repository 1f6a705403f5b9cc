import XCTest
import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitMLS
import InviteKitTestSupport

/// What a member or an outsider sends must not grow a group's state it does not earn (issue 31,
/// D2–D4; PROTOCOL §5.9): refused proposals leave no trace, re-signed copies of an event cost no
/// write, and the record of seen events is bounded.
final class MarmotHostileMemberTests: XCTestCase {
    typealias G = MarmotGroup<MLSGroupState>
    let now: Int64 = 1_800_000_000
    let relays = ["wss://relay.example.com"]

    func pair(profile: MarmotWireProfile = .current) throws -> (admin: G, member: G) {
        try MarmotPair.make(profile: profile, now: now, relays: relays)
    }

    func key(_ g: G) -> SecureBytes {
        g.state.exporter(label: MarmotProfile.groupEventExporterLabel, context: MarmotProfile.groupEventExporterContext,
                         length: MarmotProfile.groupEventKeyLength)
    }

    /// D2: 150 proposals of 40 KB that the group does not take are refused and change nothing.
    func testRefusedProposalsLeaveNoTrace() throws {
        for profile in MarmotWireProfile.allCases {
            var (a, b) = try pair(profile: profile)
            let before = a.serialized().exportBytes()
            for i in 0..<150 {
                let big = [MLSExtension(type: 0xff00, data: [UInt8](repeating: UInt8(i & 0xff), count: 40_000))]
                let (message, _) = try b.state.propose(.groupContextExtensions(big), wireFormat: .publicMessage, authenticatedData: [],
                                                       rng: SystemRandom())
                let event = try MarmotGroupEvent.make(mlsMessage: message, nostrGroupID: a.nostrGroupID, key: key(a), profile: profile,
                                                      createdAt: now + Int64(i))
                let receipt = a.ingest(event: event, now: now + 200)
                guard case .rejected? = receipt.outcomes.first else { return XCTFail("\(profile): proposal \(i) not refused") }
                XCTAssertFalse(receipt.stateChanged, "\(profile): a refused proposal reported a state change")
            }
            XCTAssertEqual(a.serialized().exportBytes(), before, "\(profile): refused proposals grew the state")
            // The next real message still reads.
            let m = try b.message(EventTemplate(kind: 9, content: "still here"), now: now + 300)
            guard case .message? = a.receive(event: m, now: now + 300).first else { return XCTFail("\(profile): message after the flood") }
        }
    }

    /// D3: one group event re-signed under 3,000 fresh keys is a duplicate every time, and no
    /// copy changes the state.
    func testResignedCopiesAreDuplicatesThatCostNoWrite() throws {
        var (a, b) = try pair()
        let m = try b.message(EventTemplate(kind: 9, content: "once"), now: now)
        guard case .message? = a.receive(event: m, now: now).first else { return XCTFail("first copy") }
        let before = a.serialized().exportBytes()
        for i in 0..<3_000 {
            let copy = try EventTemplate(kind: m.kind, content: m.content, tags: m.tags, createdAt: m.createdAt + 1 + Int64(i % 50))
                .signed(by: Secp256k1.PrivateKey())
            let receipt = a.ingest(event: copy, now: now + 100)
            guard case .duplicate? = receipt.outcomes.first else { return XCTFail("copy \(i) was not a duplicate") }
            XCTAssertFalse(receipt.stateChanged)
        }
        XCTAssertEqual(a.serialized().exportBytes(), before, "copies grew the state")
    }

    /// D4: the record of seen events stops growing: the state after 1,000 messages is the size of
    /// the state after 300.
    func testTheSeenRecordIsBounded() throws {
        var (a, b) = try pair()
        var sizes: [Int: Int] = [:]
        for i in 1...1_000 {
            let m = try b.message(EventTemplate(kind: 9, content: "m\(i % 10)"), now: now)
            guard case .message? = a.receive(event: m, now: now).first else { return XCTFail("message \(i)") }
            if i == 300 || i == 1_000 { sizes[i] = a.serialized().count }
        }
        let at300 = try XCTUnwrap(sizes[300]), at1000 = try XCTUnwrap(sizes[1_000])
        XCTAssertLessThanOrEqual(at1000, at300 + 64, "the state grew with messages: \(at300) → \(at1000) bytes")
        XCTAssertEqual(a.seenLog.count(epoch: a.epoch), MarmotSeenLog.entryLimitPerEpoch)
        // A replay the record forgot is still refused further in, and changes nothing.
        let first = try b.message(EventTemplate(kind: 9, content: "old"), now: now)
        _ = a.receive(event: first, now: now)
        for i in 0..<MarmotSeenLog.eventLimitPerEpoch { _ = a.receive(event: try b.message(EventTemplate(kind: 9, content: "n\(i)"), now: now), now: now) }
        let before = a.serialized().exportBytes()
        let receipt = a.ingest(event: first, now: now)
        if case .message? = receipt.outcomes.first { XCTFail("a forgotten replay was read twice") }
        XCTAssertEqual(a.serialized().exportBytes(), before)
    }

    /// D1: a removed member cannot undo its removal with a self-update from its copy of the state
    /// dated before the removal, whichever of the two commits a member sees first, in both profiles.
    func testARemovedMemberCannotDateItsWayBackIn() throws {
        for profile in MarmotWireProfile.allCases {
            let ada = Secp256k1.PrivateKey(), bob = Secp256k1.PrivateKey(), xena = Secp256k1.PrivateKey()
            let stores = [MemoryKeyPackageStore(), MemoryKeyPackageStore()]
            let (_, bundle) = try KeyPackageEvent.create(nostrKey: ada, relays: relays, lastResort: false, profile: profile, now: now)
            var a = try G.create(creator: bundle, name: "g", relays: relays, rng: SeededRandom(seed: 11))
            var kps: [ValidatedKeyPackage] = []
            for (k, store) in zip([bob, xena], stores) {
                let (e, b) = try KeyPackageEvent.create(nostrKey: k, relays: relays, lastResort: false, profile: profile, now: now)
                try store.save(b)
                kps.append(try KeyPackageValidator.validate(e, now: now))
            }
            let add = try a.commit(adding: kps, now: now)
            let wraps = try a.confirmPublished(add, acknowledgedBy: relays, wrappingWelcomesFrom: ada, now: now)
            var b = try G.join(giftWrap: wraps[0], recipient: bob, store: stores[0])
            var x = try G.join(giftWrap: wraps[1], recipient: xena, store: stores[1])
            var bobFirstSeesTheForgery = b

            let removal = try a.commit(removing: [xena.publicKey.rawRepresentation], now: now + 100)
            _ = try a.confirmPublished(removal, acknowledgedBy: relays, now: now + 100)
            guard case .commitApplied? = b.receive(event: removal.event, now: now + 200).first else { return XCTFail("\(profile): removal") }
            // Xena, from her copy of the epoch before, commits a self-update dated 30 s earlier.
            let forged = try x.selfUpdate(now: now + 70)
            _ = try x.confirmPublished(forged, acknowledgedBy: relays, now: now + 70)

            for (name, outcome) in [("ada", a.receive(event: forged.event, now: now + 200).first), ("bob", b.receive(event: forged.event, now: now + 200).first)] {
                guard case .superseded? = outcome else { return XCTFail("\(profile): \(name) took the removed member's commit: \(String(describing: outcome))") }
            }
            // A member who sees the forgery first rolls back to the removal when it arrives.
            guard case .commitApplied? = bobFirstSeesTheForgery.receive(event: forged.event, now: now + 200).first else {
                return XCTFail("\(profile): the forgery alone should apply")
            }
            guard case .rolledBack? = bobFirstSeesTheForgery.receive(event: removal.event, now: now + 200).first else {
                return XCTFail("\(profile): the removal did not win over the earlier-dated forgery")
            }
            for g in [a, b, bobFirstSeesTheForgery] {
                XCTAssertFalse(g.state.memberIdentities.contains(xena.publicKey.rawRepresentation), "\(profile)")
                XCTAssertEqual(g.epoch, a.epoch)
            }
            // Her next message is read by nobody, and the decision survives a save and a restore.
            let restored = try G(serialized: bobFirstSeesTheForgery.serialized())
            XCTAssertEqual(restored.snapshots.last?.committer, ada.publicKey.rawRepresentation)
            let hers = try x.message(EventTemplate(kind: 9, content: "back in"), now: now + 300)
            if case .message? = a.receive(event: hers, now: now + 300).first { XCTFail("\(profile): the removed member was read") }
        }
    }

    /// What we allow ourselves to send we accept (issue 31): a commit made under a 16 MiB event
    /// budget is over the default 64 KiB bound, refused under it, and read under the same budget.
    func testTheReceiveBoundFollowsTheSendBound() throws {
        var (a, b) = try pair()
        let roomy = try EventBudget(maxEventBytes: 16 << 20)
        let kps = try (0..<150).map { _ in
            try KeyPackageValidator.validate(try KeyPackageEvent.create(nostrKey: Secp256k1.PrivateKey(), relays: relays, lastResort: false, now: now).event,
                                             now: now)
        }
        let big = try a.commit(adding: kps, budget: roomy, now: now)
        XCTAssertGreaterThan(big.event.content.utf8.count, EventBudget.defaultMaxEventBytes)
        var underDefault = b
        guard case .rejected(let e)? = underDefault.ingest(event: big.event, now: now).outcomes.first else { return XCTFail("not refused") }
        XCTAssertEqual(e.code, .tooLarge)
        guard case .commitApplied? = b.ingest(event: big.event, now: now, budget: roomy).outcomes.first else {
            return XCTFail("a commit made within the budget was not read within it")
        }
        XCTAssertEqual(b.state.memberIdentities.count, 152)
    }
}
