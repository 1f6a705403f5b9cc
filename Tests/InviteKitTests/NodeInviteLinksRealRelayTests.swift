import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit
@testable import InviteKitMLS

/// Invite links v1, the admin's side, through a running node over the real nostr-relay on
/// loopback (issue 29; PROTOCOL §5.14.15). The requesters are built from the protocol core's
/// joiner types (`InviteLinkJoinAttempt`, `InviteRequestGiftWrap`) and join with the group engine:
/// a link is created and its descriptor fetched, a request survives the admin's restart and is
/// approved by hand, another is approved by an automatic link, one is declined, and a revoked link
/// refuses new requests.
final class NodeInviteLinksRealRelayTests: RealRelayNodeTestCase {
    private func fetch(_ filter: NostrFilter) async -> [NostrEvent] {
        let pool = RelayPool([connection(relay.url)])
        let result = await pool.fetch([filter], timeout: .seconds(10))
        await pool.close()
        return result.events
    }

    private func publish(_ event: NostrEvent) async throws {
        let c = connection(relay.url)
        let outcome = await c.publish(event, timeout: .seconds(10))
        await c.close()
        guard case .accepted = outcome else { return XCTFail("not stored: \(outcome)") }
    }

    /// A requester device: its account, one published KeyPackage and its store.
    private struct Requester {
        let account = Secp256k1.PrivateKey()
        let store = MemoryKeyPackageStore()
        var bundle: KeyPackageBundle?
        var keyPackageEvent: NostrEvent?
        var attempt: InviteLinkJoinAttempt?
    }

    /// Publishes a KeyPackage, reads the link's descriptor from its relay as the code says, and
    /// consents: returns the request wrap, not yet sent.
    /// `seen`: a preview read earlier (a revoked link's descriptor is deleted, §5.14.15).
    private func request(_ r: inout Requester, code: InviteCodeV1, seen: InvitePreviewV1? = nil) async throws -> NostrEvent {
        let now = UnixTime.now()
        let (event, bundle) = try KeyPackageEvent.create(nostrKey: r.account, relays: [relay.url], lastResort: false, now: now)
        try r.store.save(bundle)
        try await publish(event)
        // Statuses go to the requester's kind 10050 inbox relays.
        try await publish(try RelayList.inbox([relay.url], createdAt: now).signed(by: r.account))
        let descriptors = await fetch(NostrFilter(authors: [Hex.encode(code.inboxPublicKey)], kinds: [InviteLinkNostr.descriptorKind])
            .tag("d", [Hex.encode(code.linkID)]))
        let preview = try XCTUnwrap(seen ?? InvitePreviewDescriptorEvent.select(descriptors, code: code)?.preview, "descriptor published")
        let offer = try NostrInviteOfferV1(keyPackageEventID: try XCTUnwrap(Hex.decode(event.id, count: 32)), welcomeHints: [])
        let attempt = try InviteLinkJoinAttempt.consent(code: code, preview: preview, requestID: SystemRandom().bytes(32),
                                                        account: r.account.publicKey.rawRepresentation, consentKey: bundle.signaturePrivateKey,
                                                        keyPackageRef: bundle.reference, transportOffer: offer.encoded,
                                                        validUntil: UInt64(now) + 3600, now: UInt64(now))
        (r.bundle, r.keyPackageEvent, r.attempt) = (bundle, event, attempt)
        return try InviteRequestGiftWrap.make(.request(attempt.requests[0]), account: r.account, now: now)
    }

    /// The requester's Welcome from the relay, joined with the engine, checked against its attempt;
    /// then the admin's statuses for it.
    private func joinAndAssociate(_ r: inout Requester, admin: Secp256k1.XOnlyPublicKey) async throws -> MarmotMLSGroup {
        let me = Hex.encode(r.account.publicKey.rawRepresentation)
        var wraps: [NostrEvent] = []
        var group: MarmotMLSGroup?
        let found = try await waitFor {
            wraps = await self.fetch(NostrFilter(kinds: [GiftWrap.wrapKind]).tag("p", [me]))
            for w in wraps {
                if let g = try? MarmotMLSGroup.join(giftWrap: w, recipient: r.account, store: r.store) { group = g; return true }
            }
            return false
        }
        XCTAssertTrue(found, "the Welcome reached the requester")
        let joined = try XCTUnwrap(group)
        let account = r.account
        let welcome = wraps.lazy.compactMap { try? GiftWrap.unwrap($0, recipient: account) }.first { $0.rumor.kind == MarmotWelcomeRumor.kind }
        let welcomeBytes = try XCTUnwrap(welcome.flatMap { Base64.decode($0.rumor.content) })
        var attempt = try XCTUnwrap(r.attempt)
        _ = try attempt.acceptWelcome(groupID: joined.state.groupID, links: try XCTUnwrap(joined.inviteLinks), keyPackageRef: try XCTUnwrap(r.bundle).reference,
                                      welcomeHash: SHA256.hash(welcomeBytes), inviter: admin.rawRepresentation, now: UInt64(UnixTime.now()))
        let invited = try await waitFor {
            for w in await self.fetch(NostrFilter(kinds: [GiftWrap.wrapKind]).tag("p", [me])) {
                if let (author, status) = try? InviteStatusGiftWrap.open(w, account: r.account) { try? attempt.receive(status, author: author) }
            }
            return attempt.state(at: UInt64(UnixTime.now())) == .joined
        }
        XCTAssertTrue(invited, "the invited status names the Welcome and the request")
        r.attempt = attempt
        return joined
    }

    func testAnAdminCreatesDecidesAndRevokesInviteLinks() async throws {
        var ada = try node("ada", seed: 1)
        var runner = ada.runInBackground()
        let group = try await ada.createGroup(name: "club")
        // The group's relays are loopback ws://: a code needs wss:// relays.
        do {
            _ = try await ada.createInviteLink(in: group.id)
            XCTFail("a code without wss relays")
        } catch {
            XCTAssertEqual(error.underlyingCode, "no_wss_relays")
        }
        let manual = try await ada.createInviteLink(in: group.id, requestRelays: [Self.codeRelay], timeout: .seconds(30))
        XCTAssertEqual(manual.state, .active)
        let links = try await ada.currentGroup(group.id).inviteLinks
        XCTAssertEqual(links?.links, [manual.entry])

        // Joe consents and sends; the request is admitted and survives the admin's restart.
        var joe = Requester()
        try await publish(try await request(&joe, code: manual.code))
        var admitted = try await waitFor { try await ada.inviteRequests(in: group.id).count == 1 }
        XCTAssertTrue(admitted, "the request was admitted")
        runner.cancel()
        await ada.shutdown()
        ada = try node("ada", seed: 0, initialize: false)
        runner = ada.runInBackground()
        defer { runner.cancel() }
        let waiting = try await ada.inviteRequests(in: group.id)
        XCTAssertEqual(waiting.map(\.state), [.open])
        XCTAssertEqual(waiting.first?.requester, joe.account.publicKey)

        // Manual approval: a normal Add, the Welcome, then the invited status.
        let commit = try await ada.decideInviteRequest(waiting[0].requestID, in: group.id, approve: true)
        _ = try await ada.waitForCommit(try XCTUnwrap(commit), timeout: .seconds(30))
        let realized = try await waitFor { try await ada.inviteRequests(in: group.id).first?.state == .realized }
        XCTAssertTrue(realized, "the ledger records the realization")
        let joeGroup = try await joinAndAssociate(&joe, admin: ada.publicKey)
        let adaEpoch = try await ada.currentGroup(group.id).epoch
        XCTAssertEqual(joeGroup.epoch, adaEpoch)
        await refused(.inviteRevoked, "a second approval (the request is realized)") {
            _ = try await ada.decideInviteRequest(waiting[0].requestID, in: group.id, approve: true)
        }

        // An automatic link adds a valid request without an admin's choice.
        let automatic = try await ada.createInviteLink(in: group.id, approval: .automatic, requestRelays: [Self.codeRelay], timeout: .seconds(30))
        var kim = Requester()
        try await publish(try await request(&kim, code: automatic.code))
        let added = try await waitFor(60) {
            try await ada.currentGroup(group.id).state.memberIdentities.contains(kim.account.publicKey.rawRepresentation)
        }
        XCTAssertTrue(added, "the automatic link added Kim")
        _ = try await joinAndAssociate(&kim, admin: ada.publicKey)

        // A decline on the manual link sends a declined status.
        var lou = Requester()
        try await publish(try await request(&lou, code: manual.code))
        admitted = try await waitFor { try await ada.inviteRequests(in: group.id).contains { $0.requester == lou.account.publicKey } }
        XCTAssertTrue(admitted)
        let louRequest = try await ada.inviteRequests(in: group.id).first { $0.requester == lou.account.publicKey }
        let louID = try XCTUnwrap(louRequest).requestID
        let declined = try await ada.decideInviteRequest(louID, in: group.id, approve: false)
        XCTAssertNil(declined)
        let louState = try await ada.inviteRequests(in: group.id).first { $0.requestID == louID }?.state
        XCTAssertEqual(louState, .declined)
        let louAccount = lou.account
        let declineSent = try await waitFor {
            await self.fetch(NostrFilter(kinds: [GiftWrap.wrapKind]).tag("p", [louAccount.publicKey.hex])).contains {
                (try? InviteStatusGiftWrap.open($0, account: louAccount))?.status.outcome == .declined
            }
        }
        XCTAssertTrue(declineSent, "the requester got the declined status")

        // Revoking the manual link: its entry leaves the group, its open requests are revoked,
        // and a new request to its inbox is refused with a typed error.
        var mia = Requester()
        try await publish(try await request(&mia, code: manual.code))
        admitted = try await waitFor { try await ada.inviteRequests(in: group.id).contains { $0.requester == mia.account.publicKey } }
        XCTAssertTrue(admitted)
        try await ada.revokeInviteLink(manual.linkID, in: group.id, timeout: .seconds(30))
        let remaining = try await ada.currentGroup(group.id).inviteLinks?.links
        XCTAssertEqual(remaining, [automatic.entry])
        let states = try await ada.inviteRequests(in: group.id)
        XCTAssertEqual(states.first { $0.requester == mia.account.publicKey }?.state, .revoked)
        XCTAssertEqual(states.first { $0.requester == joe.account.publicKey }?.state, .realized)
        let listed = try await ada.inviteLinks(in: group.id).first { $0.linkID == manual.linkID }?.state
        XCTAssertEqual(listed, .retired)
        let deleted = try await waitFor {
            await self.fetch(NostrFilter(authors: [Hex.encode(manual.code.inboxPublicKey)], kinds: [InviteLinkNostr.descriptorKind])).isEmpty
        }
        XCTAssertTrue(deleted, "the revoked link's descriptor was deleted")
        var ned = Requester()
        let late = try await request(&ned, code: manual.code, seen: try XCTUnwrap(mia.attempt).previewAtConsent)
        await refused(.inviteRevoked, "a request to a revoked link") { _ = try await ada.handleInviteRequestWrap(late) }
        let nedListed = try await ada.inviteRequests(in: group.id).contains { $0.requester == ned.account.publicKey }
        XCTAssertFalse(nedListed)
        await refused(.notFound, "revoking a retired link") { try await ada.revokeInviteLink(manual.linkID, in: group.id) }
    }

    func testASecondAdminSeesAndDecidesRequestsThroughItsGrant() async throws {
        let ada = try node("ada2", seed: 11), dee = try node("dee2", seed: 12)
        let runs = [ada, dee].map { $0.runInBackground() }
        defer { for r in runs { r.cancel() } }
        let group = try await ada.createGroup(name: "club")
        let invite = try await ada.createInvite(groupID: group.id, singleUse: false, expiresIn: 3600)
        _ = try await dee.join(invite.url, timeout: .seconds(60))
        _ = try await ada.waitForCommit(try await ada.promoteAdmin(dee.publicKey, in: group.id), timeout: .seconds(30))
        let promoted = try await waitFor { try await dee.currentGroup(group.id).isAdmin }
        XCTAssertTrue(promoted)

        // Ada's link reaches Dee as a grant inside the group.
        let link = try await ada.createInviteLink(in: group.id, requestRelays: [Self.codeRelay], timeout: .seconds(30))
        let granted = try await waitFor { try await dee.inviteLinks(in: group.id).map(\.linkID) == [link.linkID] }
        XCTAssertTrue(granted, "the second admin holds the generation")
        let deeLinks = try await dee.inviteLinks(in: group.id)
        let deeLink = try XCTUnwrap(deeLinks.first)
        XCTAssertEqual(deeLink.code.bech32m, link.code.bech32m)
        XCTAssertEqual(deeLink.state, .active)

        // A request reaches both admins; Dee approves it with its own Add.
        var joe = Requester()
        try await publish(try await request(&joe, code: link.code))
        let seen = try await waitFor {
            let a = try await ada.inviteRequests(in: group.id).count, d = try await dee.inviteRequests(in: group.id).count
            return a == 1 && d == 1
        }
        XCTAssertTrue(seen, "both admins see the request")
        let deeRequests = try await dee.inviteRequests(in: group.id)
        let id = try XCTUnwrap(deeRequests.first).requestID
        let commit = try await dee.decideInviteRequest(id, in: group.id, approve: true)
        _ = try await dee.waitForCommit(try XCTUnwrap(commit), timeout: .seconds(30))
        let joeGroup = try await joinAndAssociate(&joe, admin: dee.publicKey)
        let deeEpoch = try await dee.currentGroup(group.id).epoch
        XCTAssertEqual(joeGroup.epoch, deeEpoch)
        let adaSees = try await waitFor { try await ada.currentGroup(group.id).state.memberIdentities.contains(joe.account.publicKey.rawRepresentation) }
        XCTAssertTrue(adaSees)
        // Dee's invited record reaches Ada, whose retained history holds the Add: realized there
        // too, so Ada cannot make a second Add for it.
        let adaRealized = try await waitFor { try await ada.inviteRequests(in: group.id).first { $0.requestID == id }?.state == .realized }
        XCTAssertTrue(adaRealized, "the other admin projects the realization")
        do {
            _ = try await ada.decideInviteRequest(id, in: group.id, approve: true)
            XCTFail("a second Add for a realized request")
        } catch {
            XCTAssertEqual(error.code, .inviteRevoked, "\(error)")
        }

        // Ada declines Kim's request; Dee sees that admin's decline (automatic processing stops).
        var kim = Requester()
        try await publish(try await request(&kim, code: link.code))
        let kimSeen = try await waitFor {
            let a = try await ada.inviteRequests(in: group.id).count, d = try await dee.inviteRequests(in: group.id).count
            return a == 2 && d == 2
        }
        XCTAssertTrue(kimSeen, "both admins see the second request")
        let adaRequests = try await ada.inviteRequests(in: group.id)
        let kimID = try XCTUnwrap(adaRequests.first { $0.requestID != id }).requestID
        _ = try await ada.decideInviteRequest(kimID, in: group.id, approve: false)
        let deeDeclined = try await waitFor { try await dee.inviteRequests(in: group.id).first { $0.requestID == kimID }?.state == .declined }
        XCTAssertTrue(deeDeclined, "the decline reaches the other admin")
    }

    /// The obligations of an approval survive a restart: the Add is queued by a node that is not
    /// running and shut down before anything is published; the next run publishes it, and the
    /// settled approval realizes the request and sends its status.
    func testAnApprovalQueuedBeforeARestartIsCompletedAfterIt() async throws {
        var ada = try node("ada3", seed: 21)
        var runner = ada.runInBackground()
        let group = try await ada.createGroup(name: "club")
        let link = try await ada.createInviteLink(in: group.id, requestRelays: [Self.codeRelay], timeout: .seconds(30))
        var joe = Requester()
        try await publish(try await request(&joe, code: link.code))
        let admitted = try await waitFor { try await ada.inviteRequests(in: group.id).count == 1 }
        XCTAssertTrue(admitted)
        runner.cancel()
        await ada.shutdown()

        ada = try node("ada3", seed: 0, initialize: false)
        let listed = try await ada.inviteRequests(in: group.id)
        let id = try XCTUnwrap(listed.first?.requestID)
        let decided = try await ada.decideInviteRequest(id, in: group.id, approve: true)
        let commit = try XCTUnwrap(decided)
        let approving = try await ada.inviteRequests(in: group.id).first?.approving
        XCTAssertEqual(approving, true)
        await ada.shutdown()

        ada = try node("ada3", seed: 0, initialize: false)
        runner = ada.runInBackground()
        defer { runner.cancel() }
        _ = try await ada.waitForCommit(commit, timeout: .seconds(30))
        let realized = try await waitFor { try await ada.inviteRequests(in: group.id).first?.state == .realized }
        XCTAssertTrue(realized, "the restarted node settled the approval")
        _ = try await joinAndAssociate(&joe, admin: ada.publicKey)
    }

    /// `body` throws an ``InviteKitError`` with `code`.
    private func refused(_ code: InviteKitError.Code, _ what: String, _ body: () async throws -> Void) async {
        do {
            try await body()
            XCTFail("\(what): not refused")
        } catch let e as InviteKitError {
            XCTAssertEqual(e.code, code, "\(what): \(e)")
        } catch {
            XCTFail("\(what): \(error)")
        }
    }
}
