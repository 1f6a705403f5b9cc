import InviteKitCrypto
import InviteKitMLS
import InviteKitTestSupport
import XCTest

/// The requester's side of an invite-link join (PROTOCOL §5.14.11), against the admin's ledger
/// (§5.14.10) where the two meet: consent, refresh, withdrawal, preview substitution, missing and
/// late status.
final class InviteLinkJoinAttemptTests: XCTestCase {
    typealias F = InviteLinkFixture
    let now: UInt64 = 1_800_000_000
    let linkID = [UInt8](repeating: 0x11, count: 32)
    let bearer = SecureBytes(copying: [UInt8](repeating: 0x5a, count: 32))
    let inviter = F.xOnly(9)

    var code: InviteCodeV1 {
        try! InviteCodeV1(inboxPublicKey: F.xOnly(7), linkID: linkID, bearer: bearer,
                          previewKey: SecureBytes(copying: [UInt8](repeating: 0x33, count: 32)), requestRelays: ["wss://relay.example"])
    }

    func preview(name: String = "Book club", expiresAt: UInt64 = 0) throws -> InvitePreviewV1 {
        try InvitePreviewV1(inboxPublicKey: F.xOnly(7), linkID: linkID, bearerHash: code.bearerHash, expiresAt: expiresAt,
                            approvalMode: .manual, name: name, description: "", imageType: .none, image: [])
    }

    /// The component entry an admin made for `preview`.
    func links(for preview: InvitePreviewV1) throws -> InviteLinksV1 {
        try InviteLinksV1(links: [InviteLinkV1(linkID: preview.linkID, inboxPublicKey: preview.inboxPublicKey, bearerHash: preview.bearerHash,
                                               previewHash: preview.previewHash, expiresAt: preview.expiresAt, approvalMode: preview.approvalMode)])
    }

    func consent(_ p: InvitePreviewV1? = nil, key: Ed25519.PrivateKey = Ed25519.PrivateKey(), ref: UInt8 = 0x41,
                 validFor: UInt64 = 86_400) throws -> InviteLinkJoinAttempt {
        try InviteLinkJoinAttempt.consent(code: code, preview: p ?? preview(), requestID: [UInt8](repeating: 1, count: 32), account: F.xOnly(3),
                                          consentKey: key, keyPackageRef: [UInt8](repeating: ref, count: 32),
                                          transportOffer: F.request.tbs.transportOffer, validUntil: now + validFor, now: now)
    }

    func assertRefused<T>(_ body: @autoclosure () throws -> T, _ code: MLSError.Code, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { XCTAssertEqual(($0 as? MLSError)?.code, code, "\($0)", file: file, line: line) }
    }

    func testConsentBindsTheOfferAndTheAdminAdmitsIt() throws {
        let key = Ed25519.PrivateKey()
        let attempt = try consent(key: key)
        let r0 = try XCTUnwrap(attempt.requests.first)
        XCTAssertEqual(r0.tbs.revision, 0)
        XCTAssertEqual(r0.tbs.context.consentKey, key.publicKey, "signed with the offered leaf's key")
        XCTAssertEqual(r0.tbs.keyPackageRef, [UInt8](repeating: 0x41, count: 32))
        XCTAssertNoThrow(try r0.verifyConsent())
        XCTAssertEqual(attempt.state(at: now), .requested)
        var ledger = InviteRequestLedger()
        XCTAssertEqual(try ledger.admit(r0, entry: try links(for: try preview()).links[0], now: now), .admitted)

        // Refusals: another link's preview, an expired link, a deadline beyond thirty days.
        let foreign = try InvitePreviewV1(inboxPublicKey: F.xOnly(8), linkID: linkID, bearerHash: code.bearerHash, expiresAt: 0,
                                          approvalMode: .manual, name: "x", description: "", imageType: .none, image: [])
        assertRefused(try consent(foreign), .invalidInvitePreview)
        assertRefused(try consent(try preview(expiresAt: now)), .expired)
        assertRefused(try consent(validFor: InviteLinkLimits.maxDeadlineAhead + 1), .invalidInviteRecord)
    }

    func testRefreshesChainToRevisionSevenThenNeedANewRequest() throws {
        var attempt = try consent()
        var ledger = InviteRequestLedger()
        let entry = try links(for: try preview()).links[0]
        _ = try ledger.admit(attempt.requests[0], entry: entry, now: now)
        // Delivered newest first: the admin still ends on the highest revision.
        var refreshes: [InviteRequestV1] = []
        for i in 1...7 { refreshes.append(try attempt.refresh(keyPackageRef: [UInt8](repeating: UInt8(0x41 + i), count: 32),
                                                               transportOffer: F.request.tbs.transportOffer, now: now)) }
        for r in refreshes.reversed() { _ = try ledger.admit(r, entry: entry, now: now) }
        XCTAssertEqual(ledger.record(for: attempt.context)?.governingRequest?.tbs.revision, 7)
        assertRefused(try attempt.refresh(keyPackageRef: [UInt8](repeating: 0x60, count: 32), transportOffer: F.request.tbs.transportOffer, now: now),
                      .inviteCapacity)
    }

    func testPreviewSubstitutionAndMissingStatusLeaveNothingJoined() throws {
        var attempt = try consent()
        let ref = [UInt8](repeating: 0x41, count: 32), welcomeHash = [UInt8](repeating: 0xee, count: 32)
        // The admin's group advertises another preview under the same link: refused, before storage.
        let swapped = try links(for: try preview(name: "Something else"))
        assertRefused(try attempt.acceptWelcome(groupID: [1], links: swapped, keyPackageRef: ref, welcomeHash: welcomeHash, inviter: inviter, now: now),
                      .invitePreviewMismatch)
        assertRefused(try attempt.acceptWelcome(groupID: [1], links: .empty, keyPackageRef: ref, welcomeHash: welcomeHash, inviter: inviter, now: now),
                      .invitePreviewMismatch)
        // A Welcome for a package this attempt never offered is an ordinary invitation, not ours.
        assertRefused(try attempt.acceptWelcome(groupID: [1], links: try links(for: try preview()), keyPackageRef: [UInt8](repeating: 9, count: 32),
                                                welcomeHash: welcomeHash, inviter: inviter, now: now), .notFound)
        XCTAssertEqual(attempt.state(at: now), .requested)
        XCTAssertNil(attempt.welcome)
    }

    func testMissingStatusDoesNotDelayTheJoinAndALateOneAssociates() throws {
        var attempt = try consent()
        let r0 = attempt.requests[0], ref = r0.tbs.keyPackageRef, welcomeHash = [UInt8](repeating: 0xee, count: 32)
        XCTAssertEqual(try attempt.acceptWelcome(groupID: [1], links: try links(for: try preview()), keyPackageRef: ref, welcomeHash: welcomeHash,
                                                 inviter: inviter, now: now), .joinedUnassociated)
        // Another account's claim does not associate the join.
        let invited = try InviteStatusV1(context: attempt.context, requestHash: r0.requestHash, outcome: .invited,
                                         commitHash: [UInt8](repeating: 0xcc, count: 32), welcomeHash: welcomeHash)
        try attempt.receive(invited, author: F.xOnly(10))
        XCTAssertEqual(attempt.state(at: now), .joinedUnassociated)
        try attempt.receive(invited, author: inviter)
        XCTAssertEqual(attempt.state(at: now), .joined)
        XCTAssertEqual(attempt.associatedStatus, invited)
        assertRefused(try attempt.withdraw(now: now), .inviteRequestClosed)
    }

    func testStatusNoticesAreAttributedClaims() throws {
        var attempt = try consent()
        let r0 = attempt.requests[0]
        try attempt.receive(try InviteStatusV1(context: attempt.context, requestHash: r0.requestHash, outcome: .retired), author: inviter)
        XCTAssertEqual(attempt.notices.map(\.author), [inviter])
        XCTAssertEqual(attempt.state(at: now), .requested, "a retired notice is a claim: the request waits for its deadline")
        XCTAssertEqual(attempt.state(at: attempt.context.validUntil), .expired)
        let other = try consent()
        assertRefused(try attempt.receive(try InviteStatusV1(context: other.context, requestHash: other.requests[0].requestHash, outcome: .declined),
                                          author: inviter), .notFound)
    }

    func testWithdrawalClosesTheContextOnBothSides() throws {
        var attempt = try consent()
        var ledger = InviteRequestLedger()
        let entry = try links(for: try preview()).links[0]
        _ = try ledger.admit(attempt.requests[0], entry: entry, now: now)
        let withdrawal = try attempt.withdraw(now: now)
        XCTAssertEqual(attempt.state(at: now), .withdrawn)
        assertRefused(try attempt.refresh(keyPackageRef: [UInt8](repeating: 0x60, count: 32), transportOffer: F.request.tbs.transportOffer, now: now),
                      .inviteRequestClosed)
        XCTAssertEqual(try ledger.withdraw(withdrawal, at: now), .withdrawn)
    }
}
