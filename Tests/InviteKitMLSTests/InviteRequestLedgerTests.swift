import InviteKitCrypto
import InviteKitMLS
import InviteKitTestSupport
import XCTest

/// The admin's request projection (`features/group-invite-links.md` "Required conformance
/// scenarios", the parts that need no MLS group or relay; PROTOCOL §5.14.10). Each scenario
/// checks the refusal beside the happy path.
final class InviteRequestLedgerTests: XCTestCase {
    typealias F = InviteLinkFixture
    let now: UInt64 = 1_800_000_000
    let bearer = [UInt8](repeating: 0x5a, count: 32)

    func entry(_ id: UInt8 = 1, mode: InviteLinkV1.ApprovalMode = .automatic, expiresAt: UInt64 = 0, bearer b: [UInt8]? = nil) throws -> InviteLinkV1 {
        try InviteLinkV1(linkID: [UInt8](repeating: id, count: 32), inboxPublicKey: F.xOnly(7), bearerHash: SHA256.hash(b ?? bearer),
                         previewHash: [UInt8](repeating: 0xcc, count: 32), expiresAt: expiresAt, approvalMode: mode)
    }

    /// One requesting device: its consent key and context on link `link`.
    struct Device {
        let key: Ed25519.PrivateKey
        let context: InviteRequestContextV1
    }

    func device(link: UInt8 = 1, request id: UInt8 = 1, account: UInt8 = 3, validFor: UInt64 = 86_400, inbox: UInt8 = 7) throws -> Device {
        let key = Ed25519.PrivateKey()
        let context = try InviteRequestContextV1(inboxPublicKey: F.xOnly(inbox), linkID: [UInt8](repeating: link, count: 32),
                                                 requestID: [UInt8](repeating: id, count: 32), requesterAccount: F.xOnly(account),
                                                 consentKey: key.publicKey, validUntil: now + validFor)
        return Device(key: key, context: context)
    }

    /// Revision `revision` of `d`'s request after `previous`, offering KeyPackage ref `offer`.
    func request(_ d: Device, revision: UInt32 = 0, after previous: InviteRequestV1? = nil, offer: UInt8 = 0x41,
                 bearer b: [UInt8]? = nil, signer: Ed25519.PrivateKey? = nil) throws -> InviteRequestV1 {
        let tbs = try InviteRequestTBSV1(context: d.context, revision: revision,
                                         previousRequestHash: previous?.requestHash ?? [UInt8](repeating: 0, count: 32),
                                         bearer: SecureBytes(copying: b ?? bearer), keyPackageRef: [UInt8](repeating: offer, count: 32),
                                         transportOffer: F.request.tbs.transportOffer)
        guard let signer else { return try InviteRequestV1(signing: tbs, consentKey: d.key) }
        // A signature by another key over the same bytes, as a forger would send.
        let honest = try InviteRequestV1(signing: tbs, consentKey: d.key)
        return try InviteRequestV1(tbs: tbs, consentSignature: Array(signer.signature(for: honest.tbs.encoded).prefix(64)))
    }

    func assertRefused<T>(_ body: @autoclosure () throws -> T, _ code: MLSError.Code, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { XCTAssertEqual(($0 as? MLSError)?.code, code, "\($0)", file: file, line: line) }
    }

    // MARK: Admission

    func testAdmissionChecksLinkBearerInboxDeadlineAndSignature() throws {
        var ledger = InviteRequestLedger()
        let link = try entry(), d = try device()
        let r0 = try request(d)
        assertRefused(try ledger.admit(r0, entry: nil, now: now), .inviteLinkInactive)
        assertRefused(try ledger.admit(r0, entry: try entry(2), now: now), .inviteLinkInactive)
        assertRefused(try ledger.admit(try request(d, bearer: [UInt8](repeating: 1, count: 32)), entry: link, now: now), .inviteUnauthorized)
        assertRefused(try ledger.admit(try request(try device(inbox: 8)), entry: link, now: now), .inviteUnauthorized)
        assertRefused(try ledger.admit(r0, entry: link, now: d.context.validUntil), .expired)
        assertRefused(try ledger.admit(try request(try device(validFor: InviteLinkLimits.maxDeadlineAhead + 1)), entry: link, now: now),
                      .invalidInviteRecord)
        assertRefused(try ledger.admit(try InviteRequestV1(tbs: r0.tbs, consentSignature: [UInt8](repeating: 0, count: 64)), entry: link, now: now),
                      .invalidSignature)
        XCTAssertTrue(ledger.records.isEmpty, "refusals retain nothing")

        XCTAssertEqual(try ledger.admit(r0, entry: link, now: now), .admitted)
        XCTAssertEqual(try ledger.admit(try request(try device(validFor: InviteLinkLimits.maxDeadlineAhead)), entry: link, now: now), .admitted)
        XCTAssertEqual(ledger.state(of: d.context, at: now), .open)
        XCTAssertEqual(ledger.automaticCandidates(entries: [link], at: now).map(\.requestHash).count, 2)
        XCTAssertEqual(try ledger.manualApproval(of: d.context, entry: link, at: now).requestHash, r0.requestHash)
    }

    func testDuplicateWrapsAreIdempotent() throws {
        var ledger = InviteRequestLedger()
        let link = try entry(), d = try device(), r0 = try request(d)
        XCTAssertEqual(try ledger.admit(r0, entry: link, now: now), .admitted)
        let bytes = ledger.serialized().exportBytes()
        for _ in 0..<5 { XCTAssertEqual(try ledger.admit(try InviteRequestV1(decoding: r0.encoded), entry: link, now: now), .duplicate) }
        XCTAssertEqual(ledger.serialized().exportBytes(), bytes, "a duplicate changes nothing")
    }

    // MARK: Refresh chains

    func testRefreshBeforeItsParentWaitsThenGoverns() throws {
        var ledger = InviteRequestLedger()
        let link = try entry(), d = try device()
        let r0 = try request(d), r1 = try request(d, revision: 1, after: r0, offer: 0x42), r2 = try request(d, revision: 2, after: r1, offer: 0x43)
        XCTAssertEqual(try ledger.admit(r2, entry: link, now: now), .awaitingAncestor)
        XCTAssertEqual(try ledger.admit(r1, entry: link, now: now), .awaitingAncestor)
        XCTAssertEqual(ledger.state(of: d.context, at: now), .awaitingBinding)
        XCTAssertTrue(ledger.automaticCandidates(entries: [link], at: now).isEmpty, "an unbound refresh is not actionable")
        assertRefused(try ledger.manualApproval(of: d.context, entry: link, at: now), .notFound)
        XCTAssertEqual(try ledger.admit(r0, entry: link, now: now), .admitted)
        // The highest validated revision governs, whatever order delivery took.
        XCTAssertEqual(ledger.record(for: d.context)?.chain.map(\.tbs.revision), [0, 1, 2])
        XCTAssertEqual(ledger.automaticCandidates(entries: [link], at: now).map(\.requestHash), [r2.requestHash])
        // A refresh signed by another key is refused, and one skipping a revision waits forever.
        assertRefused(try ledger.admit(try request(d, revision: 3, after: r2, signer: Ed25519.PrivateKey()), entry: link, now: now), .invalidSignature)
    }

    func testConflictingRefreshesStopAdmissionWithoutChoosing() throws {
        for order in [false, true] {
            var ledger = InviteRequestLedger()
            let link = try entry(), d = try device()
            let r0 = try request(d), a = try request(d, revision: 1, after: r0, offer: 0x42), b = try request(d, revision: 1, after: r0, offer: 0x43)
            XCTAssertEqual(try ledger.admit(r0, entry: link, now: now), .admitted)
            XCTAssertEqual(try ledger.admit(order ? b : a, entry: link, now: now), .refreshed(revision: 1))
            XCTAssertEqual(try ledger.admit(order ? a : b, entry: link, now: now), .conflicting)
            XCTAssertEqual(ledger.state(of: d.context, at: now), .conflicting)
            XCTAssertTrue(ledger.automaticCandidates(entries: [link], at: now).isEmpty)
            assertRefused(try ledger.manualApproval(of: d.context, entry: link, at: now), .inviteUnauthorized)
        }
        // Two refreshes waiting for the same parent conflict when it arrives; neither is chosen.
        var ledger = InviteRequestLedger()
        let link = try entry(), d = try device()
        let r0 = try request(d), a = try request(d, revision: 1, after: r0, offer: 0x42), b = try request(d, revision: 1, after: r0, offer: 0x43)
        _ = try ledger.admit(a, entry: link, now: now)
        _ = try ledger.admit(b, entry: link, now: now)
        XCTAssertEqual(try ledger.admit(r0, entry: link, now: now), .conflicting)
        XCTAssertEqual(ledger.record(for: d.context)?.chain.count, 1)
    }

    func testTwoDevicesOfOneAccountAreTwoContexts() throws {
        var ledger = InviteRequestLedger()
        let link = try entry(), phone = try device(request: 1, account: 3), laptop = try device(request: 2, account: 3)
        let p = try request(phone, offer: 0x51), l = try request(laptop, offer: 0x52)
        XCTAssertEqual(try ledger.admit(p, entry: link, now: now), .admitted)
        XCTAssertEqual(try ledger.admit(l, entry: link, now: now), .admitted)
        try ledger.realize(phone.context, requestHash: p.requestHash, commitHash: [UInt8](repeating: 1, count: 32),
                           welcomeHash: [UInt8](repeating: 2, count: 32))
        XCTAssertEqual(ledger.state(of: phone.context, at: now), .realized)
        XCTAssertEqual(ledger.state(of: laptop.context, at: now), .open, "the other device's consent is its own")
        // The laptop cannot refresh itself into the phone's context: that context's key signs it.
        assertRefused(try ledger.admit(try request(phone, revision: 1, after: p, signer: laptop.key), entry: link, now: now), .invalidSignature)
    }

    // MARK: Withdrawal

    func testOnlyTheRequestersConsentKeyWithdraws() throws {
        var ledger = InviteRequestLedger()
        let link = try entry(), d = try device(), r0 = try request(d)
        _ = try ledger.admit(r0, entry: link, now: now)
        // Another account signs a withdrawal of this context: refused.
        let forged = try InviteWithdrawalV1(context: d.context, consentSignature: Array(Ed25519.PrivateKey().signature(for: d.context.encoded).prefix(64)))
        assertRefused(try ledger.withdraw(forged, at: now), .invalidSignature)
        // Another account's own context that copies ours except the account: bound to nothing here.
        let other = try device(account: 4)
        XCTAssertNil(try ledger.withdraw(try InviteWithdrawalV1(signing: other.context, consentKey: other.key), at: now))
        XCTAssertEqual(ledger.state(of: d.context, at: now), .open)
        XCTAssertEqual(ledger.earlyWithdrawals.count, 1)

        XCTAssertEqual(try ledger.withdraw(try InviteWithdrawalV1(signing: d.context, consentKey: d.key), at: now), .withdrawn)
        XCTAssertTrue(ledger.automaticCandidates(entries: [link], at: now).isEmpty)
        assertRefused(try ledger.manualApproval(of: d.context, entry: link, at: now), .inviteRequestClosed)
        // An out-of-order refresh after the withdrawal reopens nothing.
        XCTAssertEqual(try ledger.admit(try request(d, revision: 1, after: r0, offer: 0x42), entry: link, now: now), .closed(.withdrawn))
    }

    func testWithdrawalBeforeItsRequestWaitsForTheBinding() throws {
        var ledger = InviteRequestLedger()
        let link = try entry(), d = try device()
        XCTAssertNil(try ledger.withdraw(try InviteWithdrawalV1(signing: d.context, consentKey: d.key), at: now))
        XCTAssertEqual(ledger.retainedOnActiveLinks, 0, "an unbound withdrawal takes no reservation")
        XCTAssertEqual(try ledger.admit(try request(d), entry: link, now: now), .admitted)
        XCTAssertEqual(ledger.state(of: d.context, at: now), .withdrawn)
        XCTAssertTrue(ledger.earlyWithdrawals.isEmpty)
    }

    // MARK: Expiry

    func testLinkExpiryWhileOfflineLeavesOnlyManualChoices() throws {
        var ledger = InviteRequestLedger()
        let expiry = now + 100
        let link = try entry(expiresAt: expiry), early = try device(request: 1), late = try device(request: 2)
        _ = try ledger.admit(try request(early), entry: link, now: now)
        XCTAssertEqual(ledger.automaticCandidates(entries: [link], at: now).count, 1)
        // The admin comes back online after the link expired.
        XCTAssertTrue(ledger.automaticCandidates(entries: [link], at: expiry).isEmpty, "link expiry stops automatic admission")
        XCTAssertNoThrow(try ledger.manualApproval(of: early.context, entry: link, at: expiry), "a retained request stays open to a manual choice")
        XCTAssertEqual(try ledger.admit(try request(late), entry: link, now: expiry + 5), .admitted)
        XCTAssertEqual(ledger.record(for: late.context)?.timingUnverified, true)
        let renewed = try entry(expiresAt: 0)
        XCTAssertEqual(ledger.automaticCandidates(entries: [renewed], at: expiry + 5).map(\.tbs.context), [early.context],
                       "a request first seen after expiry is never automatic: its timestamps prove nothing")
    }

    func testRequestDeadlineReplayIsRefusedBeforeAndAfterPruning() throws {
        var ledger = InviteRequestLedger()
        let link = try entry(), d = try device(validFor: 600), r0 = try request(d)
        _ = try ledger.admit(r0, entry: link, now: now)
        let deadline = d.context.validUntil
        XCTAssertEqual(ledger.state(of: d.context, at: deadline), .expired)
        assertRefused(try ledger.manualApproval(of: d.context, entry: link, at: deadline), .expired)
        XCTAssertTrue(ledger.automaticCandidates(entries: [link], at: deadline).isEmpty)
        XCTAssertEqual(ledger.prune(at: deadline + InviteLinkLimits.tombstoneGrace - 1), 0, "the tombstone outlives the deadline by 24 h")
        XCTAssertEqual(ledger.prune(at: deadline + InviteLinkLimits.tombstoneGrace), 1)
        assertRefused(try ledger.admit(r0, entry: link, now: deadline + InviteLinkLimits.tombstoneGrace), .expired)
        XCTAssertTrue(ledger.records.isEmpty)
    }

    // MARK: Capacity

    func testOpenContextsPerLinkAreCappedWithoutEviction() throws {
        var ledger = InviteRequestLedger()
        let link = try entry()
        var first: [InviteRequestContextV1] = []
        for i in 0..<InviteLinkLimits.openContextsPerLink {
            let d = try device(request: UInt8(i % 250), account: UInt8(3 + i / 250), validFor: 86_400 + UInt64(i))
            _ = try ledger.admit(try request(d), entry: link, now: now)
            first.append(d.context)
        }
        let extra = try device(request: 251)
        assertRefused(try ledger.admit(try request(extra), entry: link, now: now), .inviteCapacity)
        XCTAssertNil(ledger.state(of: extra.context, at: now), "a refused request is not a decline and leaves no record")
        XCTAssertTrue(first.allSatisfy { ledger.state(of: $0, at: now) == .open }, "nothing was evicted")
        // Completing one converts its reservation to a tombstone: the link may take one more.
        let done = ledger.records[first[0]]!.chain[0]
        try ledger.realize(first[0], requestHash: done.requestHash, commitHash: [UInt8](repeating: 1, count: 32), welcomeHash: [UInt8](repeating: 2, count: 32))
        XCTAssertEqual(try ledger.admit(try request(extra), entry: link, now: now), .admitted)
    }

    func testNineHundredNinetyNineTombstonesPlusConcurrentCompletion() throws {
        var ledger = InviteRequestLedger()
        var links: [InviteLinkV1] = []
        for l in 1...8 { links.append(try entry(UInt8(l))) }
        // 999 terminal contexts across eight active links (each link holds few open at a time).
        var n = 0
        for l in 0..<8 {
            let count = l < 7 ? 125 : 999 - 7 * 125
            for i in 0..<count {
                let d = try device(link: UInt8(l + 1), request: UInt8(i % 250), account: UInt8(3 + n / 250), validFor: 86_400 + UInt64(n))
                let r = try request(d)
                _ = try ledger.admit(r, entry: links[l], now: now)
                try ledger.realize(d.context, requestHash: r.requestHash, commitHash: [UInt8](repeating: 1, count: 32),
                                   welcomeHash: [UInt8](repeating: 2, count: 32))
                n += 1
            }
        }
        XCTAssertEqual(ledger.retainedOnActiveLinks, 999)
        let last = try device(link: 1, request: 252, account: 200), r = try request(last)
        XCTAssertEqual(try ledger.admit(r, entry: links[0], now: now), .admitted, "the thousandth reservation fits")
        // It completes while another request arrives: completion does not grow the count.
        try ledger.realize(last.context, requestHash: r.requestHash, commitHash: [UInt8](repeating: 3, count: 32), welcomeHash: [UInt8](repeating: 4, count: 32))
        XCTAssertEqual(ledger.retainedOnActiveLinks, 1000)
        assertRefused(try ledger.admit(try request(try device(link: 2, request: 253, account: 201)), entry: links[1], now: now), .inviteCapacity)
        XCTAssertEqual(ledger.records.count, 1000, "no still-required fact was evicted")
    }

    func testRetirementRelievesCapacityAndItsRollbackRestoresItKeepingWithdrawals() throws {
        var ledger = InviteRequestLedger()
        let spam = try entry(1), fresh = try entry(2)
        var contexts: [Device] = []
        for i in 0..<InviteLinkLimits.openContextsPerLink {
            let d = try device(link: 1, request: UInt8(i), account: 3, validFor: 86_400 + UInt64(i))
            _ = try ledger.admit(try request(d), entry: spam, now: now)
            contexts.append(d)
        }
        let withdrawn = contexts[0]
        try ledger.withdraw(try InviteWithdrawalV1(signing: withdrawn.context, consentKey: withdrawn.key), at: now)
        let revoked = ledger.retire(linkID: spam.linkID, at: now)
        XCTAssertEqual(revoked.count, InviteLinkLimits.openContextsPerLink - 1, "every unfulfilled request of the generation is revoked")
        XCTAssertEqual(ledger.retainedOnActiveLinks, 0)
        assertRefused(try ledger.admit(try request(try device(link: 1, request: 200)), entry: spam, now: now), .inviteLinkInactive)
        assertRefused(try ledger.manualApproval(of: contexts[1].context, entry: spam, at: now), .inviteLinkInactive)
        XCTAssertEqual(try ledger.admit(try request(try device(link: 2, request: 201)), entry: fresh, now: now), .admitted)

        // Convergence drops the retiring Commit: the generation and its capacity come back.
        ledger.restore(linkID: spam.linkID)
        XCTAssertEqual(ledger.state(of: contexts[1].context, at: now), .open)
        XCTAssertEqual(ledger.state(of: withdrawn.context, at: now), .withdrawn, "an independent withdrawal stays in force")
        XCTAssertEqual(ledger.openContexts(linkID: spam.linkID, at: now), InviteLinkLimits.openContextsPerLink - 1)
        XCTAssertEqual(ledger.retainedOnActiveLinks, InviteLinkLimits.openContextsPerLink + 1)
    }

    // MARK: Decisions

    func testDeclineSuppressesAutomaticButNotAManualChoice() throws {
        var ledger = InviteRequestLedger()
        let link = try entry(), d = try device(), r0 = try request(d), admin = F.xOnly(9)
        _ = try ledger.admit(r0, entry: link, now: now)
        assertRefused(try ledger.decline(d.context, requestHash: [UInt8](repeating: 9, count: 32), by: admin, at: now), .notFound)
        XCTAssertEqual(try ledger.decline(d.context, requestHash: r0.requestHash, by: admin, at: now), .declined)
        XCTAssertTrue(ledger.automaticCandidates(entries: [link], at: now).isEmpty)
        // A later refresh does not undo the decline, which holds across revisions.
        _ = try ledger.admit(try request(d, revision: 1, after: r0, offer: 0x42), entry: link, now: now)
        XCTAssertEqual(ledger.state(of: d.context, at: now), .declined)
        XCTAssertEqual(try ledger.manualApproval(of: d.context, entry: link, at: now).tbs.revision, 1)
    }

    func testARealizedContextNeverYieldsASecondAddUnlessItsBranchLoses() throws {
        var ledger = InviteRequestLedger()
        let link = try entry(), d = try device(), r0 = try request(d), commit = [UInt8](repeating: 7, count: 32)
        _ = try ledger.admit(r0, entry: link, now: now)
        assertRefused(try ledger.realize(d.context, requestHash: [UInt8](repeating: 1, count: 32), commitHash: commit, welcomeHash: commit), .notFound)
        try ledger.realize(d.context, requestHash: r0.requestHash, commitHash: commit, welcomeHash: [UInt8](repeating: 8, count: 32))
        assertRefused(try ledger.manualApproval(of: d.context, entry: link, at: now), .inviteRequestClosed)
        XCTAssertEqual(try ledger.admit(try request(d, revision: 1, after: r0, offer: 0x42), entry: link, now: now), .closed(.realized),
                       "a refresh after realization makes no second Add")
        try ledger.withdraw(try InviteWithdrawalV1(signing: d.context, consentKey: d.key), at: now)
        XCTAssertEqual(ledger.state(of: d.context, at: now), .realized, "a withdrawal never removes a member")
        XCTAssertEqual(ledger.unrealize(commitHash: commit), [d.context])
        XCTAssertEqual(ledger.state(of: d.context, at: now), .withdrawn, "on the losing branch's undo, the withdrawal governs")
    }

    // MARK: Durability

    func testStoredFormRoundTripsEveryFact() throws {
        var ledger = InviteRequestLedger()
        let link = try entry(), a = try device(request: 1), b = try device(request: 2), c = try device(link: 9, request: 3)
        let a0 = try request(a)
        _ = try ledger.admit(a0, entry: link, now: now)
        _ = try ledger.admit(try request(a, revision: 2, after: try request(a, revision: 1, after: a0)), entry: link, now: now)
        _ = try ledger.admit(try request(b), entry: try entry(expiresAt: now - 1), now: now)
        try ledger.decline(a.context, requestHash: a0.requestHash, by: F.xOnly(9), at: now)
        try ledger.withdraw(try InviteWithdrawalV1(signing: c.context, consentKey: c.key), at: now)
        ledger.retire(linkID: [UInt8](repeating: 5, count: 32), at: now)
        let bytes = ledger.serialized()
        let read = try InviteRequestLedger(serialized: bytes)
        XCTAssertEqual(read.serialized().exportBytes(), bytes.exportBytes())
        XCTAssertEqual(read.record(for: a.context)?.waiting.count, 1)
        XCTAssertEqual(read.state(of: a.context, at: now), .declined)
        XCTAssertEqual(read.record(for: b.context)?.timingUnverified, true)
        XCTAssertEqual(read.earlyWithdrawals.map(\.context), [c.context])
        XCTAssertEqual(read.retiredLinks, [[UInt8](repeating: 5, count: 32)])
        var damaged = bytes.exportBytes()
        damaged[damaged.count - 1] ^= 0xff
        XCTAssertThrowsError(try InviteRequestLedger(serialized: SecureBytes(copying: damaged + [0])))
    }
}
