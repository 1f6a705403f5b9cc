import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit
@testable import InviteKitMLS

/// The joiner's node flow for invite links (PROTOCOL §5.14.16) against an admin built from the
/// protocol core, over one in-memory relay: preview sends nothing; consent sends a request the
/// inbox opens; an `invited` status and the Welcome join; a decline ends the wait; a Welcome
/// whose group's entry is not the consented preview is refused and keeps its KeyPackage; the
/// attempt survives a restart.
final class InviteLinkJoinNodeTests: XCTestCase {
    private let homes = NodeHomes()
    private static let codeRelays = ["wss://links.invitekit.test"]

    override func tearDown() { homes.remove() }

    private func admin(seed: UInt64 = 7, name: String = "Hikers", expiresAt: UInt64 = 0, reusing: InviteLinkGeneration? = nil,
                       entry: ((InviteLinkGeneration) throws -> InviteLinkV1)? = nil) throws -> InviteLinkTestAdmin {
        let relay = homes.relay
        return try InviteLinkTestAdmin(name: name, expiresAt: expiresAt, codeRelays: Self.codeRelays, groupRelays: [relay.url], entry: entry,
                                       reusing: reusing, seed: seed, now: homes.now, connect: { relay })
    }

    private func waitFor(_ seconds: Double = 20, _ condition: () async throws -> Bool) async throws -> Bool {
        try await Poll.awaiting(timeout: .seconds(seconds), every: .milliseconds(50), condition)
    }

    private func storedEventCount() async -> Int { await homes.relay.events(matching: [NostrFilter()]).count }

    func testPreviewSendsNothingThenConsentSendsARequestTheInboxOpensAndTheWelcomeJoins() async throws {
        var admin = try admin()
        try await admin.publishDescriptor()
        let bob = try homes.node("bob", seed: 2)
        let before = await storedEventCount()
        let opened = try await bob.previewInviteLink(code: admin.code)
        XCTAssertEqual(opened.preview, admin.preview)
        XCTAssertEqual(opened.preview.name, "Hikers")
        let after = await storedEventCount()
        XCTAssertEqual(after, before, "opening a preview publishes nothing")
        let listed = try await bob.inviteLinkJoins()
        XCTAssertTrue(listed.isEmpty, "and stores nothing")

        let runner = bob.runInBackground()
        defer { runner.cancel() }
        let started = try await bob.joinByInviteLink(code: admin.code, preview: opened.preview)
        XCTAssertEqual(started.status, .requested)
        XCTAssertEqual(started.revision, 0)
        var operations: [NostrInviteRequestV1.Operation] = []
        let arrived = try await waitFor {
            operations = try await admin.requests()
            return !operations.isEmpty
        }
        XCTAssertTrue(arrived, "the request reached the inbox")
        guard case .request(let request) = try XCTUnwrap(operations.first) else { return XCTFail("a request, not a withdrawal") }
        XCTAssertNoThrow(try request.verifyConsent())
        XCTAssertEqual(request.tbs.revision, 0)
        XCTAssertEqual(request.tbs.context.requesterAccount, bob.publicKey.rawRepresentation)
        XCTAssertEqual(Hex.encode(request.tbs.context.requestID), started.requestID)
        XCTAssertEqual(request.tbs.bearerHash, admin.generation.entry.bearerHash)

        try await admin.approve(request)
        let joined = try await bob.waitForInviteLinkJoin(started.requestID, timeout: .seconds(20))
        XCTAssertEqual(joined.groupID, Hex.encode(admin.group.state.groupID))
        let associated = try await waitFor { try await bob.inviteLinkJoin(started.requestID).status == .joined }
        XCTAssertTrue(associated, "the invited status names the Welcome: joined, not joined_unassociated")
        let group = try await bob.group(try XCTUnwrap(joined.groupID))
        XCTAssertEqual(group.name, "Hikers")
    }

    /// The request is gated on the KeyPackage it offers (PROTOCOL §5.14.16): while no relay
    /// acknowledged the KeyPackage, nothing of the request leaves; once one does, the request
    /// follows it, so an admin reading the request finds the offer.
    func testTheRequestLeavesOnlyAfterItsKeyPackageIsAcknowledged() async throws {
        let admin = try admin()
        try await admin.publishDescriptor()
        let codeRelay = InMemoryRelay(url: Self.codeRelays[0])
        let relays: [InMemoryRelay] = [homes.relay, codeRelay]
        let noKeyPackages: InMemoryRelay.Policy = { $0.kind == KeyPackageEvent.kind ? .reject("blocked: no KeyPackages here") : .accept }
        for relay in relays { await relay.setPolicy(noKeyPackages) }

        let bob = try homes.node("bob", seed: 2)
        let opened = try await bob.previewInviteLink(code: admin.code)
        let started = try await bob.joinByInviteLink(code: admin.code, preview: opened.preview)
        try await bob.flushOutbound(to: relays)
        var offered: [NostrEvent] = []
        for relay in relays { offered += await relay.log.map(\.event) }
        XCTAssertTrue(offered.contains { $0.kind == KeyPackageEvent.kind }, "the KeyPackage was offered")
        XCTAssertFalse(offered.contains { $0.kind == GiftWrap.wrapKind }, "no request without an acknowledged KeyPackage")
        let (gatePurpose, requestDeliveries) = try bob.store.read { tx in
            let row = try XCTUnwrap(try tx.inviteLinkJoins.get(requestID: started.requestID))
            let gate = try XCTUnwrap(try tx.outbound.entry(eventID: row.lastRequestEventID)?.gateEventID)
            return (try tx.outbound.entry(eventID: gate)?.purpose, try tx.outbound.deliveries(eventID: row.lastRequestEventID))
        }
        XCTAssertEqual(gatePurpose, .keyPackage, "the request is gated on its KeyPackage event")
        XCTAssertEqual(Set(requestDeliveries.map(\.status)), [.queued], "and still queued for the code's relay")
        // Every relay refused the KeyPackage for good: the request can never leave, and says so.
        let shown = try await bob.inviteLinkJoin(started.requestID).delivery
        XCTAssertEqual(shown, .failed, "a request whose KeyPackage every relay refused shows as failed")
        do {
            _ = try await bob.waitForInviteLinkJoin(started.requestID, timeout: .seconds(5))
            XCTFail("a request that can never leave ends the wait")
        } catch {
            XCTAssertEqual(error.code, .relayUnavailable)
            XCTAssertEqual(error.underlyingCode, "invite_link_request_undeliverable")
        }

        // A requester whose KeyPackage a relay takes: on the code's relay, the request follows it.
        for relay in relays { await relay.setPolicy(nil) }
        let carol = try homes.node("carol", seed: 3)
        _ = try await carol.joinByInviteLink(code: admin.code, preview: opened.preview)
        try await carol.flushOutbound(to: relays)
        let carols = await codeRelay.log.map(\.event).filter { $0.kind == KeyPackageEvent.kind ? $0.pubkey == carol.publicKey.hex : $0.kind == GiftWrap.wrapKind }
        XCTAssertEqual(carols.map(\.kind), [KeyPackageEvent.kind, GiftWrap.wrapKind], "the KeyPackage, then the request")
    }

    func testADeclinedStatusEndsTheWait() async throws {
        let admin = try admin()
        try await admin.publishDescriptor()
        let bob = try homes.node("bob", seed: 2)
        let runner = bob.runInBackground()
        defer { runner.cancel() }
        let opened = try await bob.previewInviteLink(code: admin.code)
        let started = try await bob.joinByInviteLink(code: admin.code, preview: opened.preview)
        var operations: [NostrInviteRequestV1.Operation] = []
        _ = try await waitFor { operations = try await admin.requests(); return !operations.isEmpty }
        guard case .request(let request)? = operations.first else { return XCTFail("no request") }
        try await admin.send(.declined, for: request)
        do {
            _ = try await bob.waitForInviteLinkJoin(started.requestID, timeout: .seconds(20))
            XCTFail("a declined request does not join")
        } catch {
            XCTAssertEqual(error.code, .consentNotAllowed)
            XCTAssertEqual(error.underlyingCode, "invite_link_declined")
        }
        let join = try await bob.inviteLinkJoin(started.requestID)
        XCTAssertEqual(join.status, .declined)
        XCTAssertEqual(join.notices.map(\.outcome), [.declined])
        XCTAssertEqual(join.notices.first?.author, admin.key.publicKey.hex, "the claim is attributed to its admin")
    }

    func testAWelcomeIntoAGroupWhoseEntryIsNotTheConsentedPreviewIsRefusedAndKeepsItsKeyPackage() async throws {
        var admin = try admin()
        try await admin.publishDescriptor()
        // Another admin's group holds an entry for the same link and inbox, committing to another preview.
        let other = try InvitePreviewV1(inboxPublicKey: admin.preview.inboxPublicKey, linkID: admin.preview.linkID, bearerHash: admin.preview.bearerHash,
                                        expiresAt: 0, approvalMode: .manual, name: "Not the hikers", description: "", imageType: .none, image: [])
        var impostor = try self.admin(seed: 9, name: "Not the hikers", reusing: admin.generation) { g in
            try InviteLinkV1(linkID: g.entry.linkID, inboxPublicKey: g.entry.inboxPublicKey, bearerHash: g.entry.bearerHash,
                             previewHash: other.previewHash, expiresAt: 0, approvalMode: .manual)
        }
        let bob = try homes.node("bob", seed: 2)
        let events = bob.events(bufferingNewest: 256)
        let runner = bob.runInBackground()
        defer { runner.cancel() }
        let opened = try await bob.previewInviteLink(code: admin.code)
        let started = try await bob.joinByInviteLink(code: admin.code, preview: opened.preview)
        var operations: [NostrInviteRequestV1.Operation] = []
        _ = try await waitFor { operations = try await admin.requests(); return !operations.isEmpty }
        guard case .request(let request)? = operations.first else { return XCTFail("no request") }

        try await impostor.approve(request, sendStatus: false)
        let refused: InviteKitError? = await NodeEventWait.first(in: events, timeout: .seconds(20)) { e in
            if case .inviteLinkWelcomeRefused(let id, let error) = e, id == started.requestID { return error }
            return nil
        }
        XCTAssertEqual(refused?.underlyingCode, "invite_preview_mismatch")
        let afterRefusal = try await bob.inviteLinkJoin(started.requestID)
        XCTAssertNil(afterRefusal.groupID)
        XCTAssertEqual(afterRefusal.failure, "invite_preview_mismatch")
        let groups = try await bob.groups()
        XCTAssertTrue(groups.isEmpty, "nothing of the refused group is stored")
        XCTAssertNotNil(try bob.keyPackages.bundle(reference: request.tbs.keyPackageRef), "the refused Welcome's KeyPackage is kept")

        // The kept KeyPackage still serves the real admin's Welcome.
        try await admin.approve(request)
        let joined = try await bob.waitForInviteLinkJoin(started.requestID, timeout: .seconds(20))
        XCTAssertEqual(joined.groupID, Hex.encode(admin.group.state.groupID))
        XCTAssertNil(try bob.keyPackages.bundle(reference: request.tbs.keyPackageRef), "consumed by the join")
    }

    func testTheAttemptSurvivesARestartAndRefreshAndWithdrawalChainToIt() async throws {
        let admin = try admin()
        try await admin.publishDescriptor()
        var bob: InviteKitNode? = try homes.node("bob", seed: 2)
        let opened = try await bob!.previewInviteLink(code: admin.code)
        // Consent with no runtime: stored and queued, nothing sent yet.
        let started = try await bob!.joinByInviteLink(code: admin.code, preview: opened.preview)
        let queued = try await admin.requests()
        XCTAssertTrue(queued.isEmpty)
        await bob!.shutdown()
        bob = nil

        let again = try homes.node("bob", seed: 2, initialize: false)
        let restored = try await again.inviteLinkJoin(started.requestID)
        XCTAssertEqual(restored.preview, admin.preview, "the preview seen at consent is kept")
        XCTAssertEqual(restored.status, .requested)
        let runner = again.runInBackground()
        defer { runner.cancel() }
        let refreshed = try await again.refreshInviteLinkRequest(started.requestID)
        XCTAssertEqual(refreshed.revision, 1)
        _ = try await again.withdrawInviteLinkRequest(started.requestID)
        var operations: [NostrInviteRequestV1.Operation] = []
        let all = try await waitFor { operations = try await admin.requests(); return operations.count == 3 }
        XCTAssertTrue(all, "revision 0 (queued before the restart), the refresh and the withdrawal arrive")
        let requests = operations.compactMap { op -> InviteRequestV1? in if case .request(let r) = op { return r }; return nil }
            .sorted { $0.tbs.revision < $1.tbs.revision }
        XCTAssertEqual(requests.map(\.tbs.revision), [0, 1])
        XCTAssertNoThrow(try requests[1].verifyRefresh(of: requests[0]))
        XCTAssertNotEqual(requests[0].tbs.keyPackageRef, requests[1].tbs.keyPackageRef, "a refresh offers a fresh KeyPackage")
        let withdrawal = operations.compactMap { op -> InviteWithdrawalV1? in if case .withdrawal(let w) = op { return w }; return nil }.first
        XCTAssertNoThrow(try XCTUnwrap(withdrawal).verifyConsent())
        let final = try await again.inviteLinkJoin(started.requestID)
        XCTAssertEqual(final.status, .withdrawn)
        do {
            _ = try await again.refreshInviteLinkRequest(started.requestID)
            XCTFail("a withdrawn request takes no refresh")
        } catch {
            XCTAssertEqual(error.code, .inviteRevoked)
        }
    }

    func testAnExpiredOrMissingLinkIsRefusedWithWhy() async throws {
        let expired = try admin(expiresAt: UInt64(homes.now - 60))
        try await expired.publishDescriptor()
        let bob = try homes.node("bob", seed: 2)
        do {
            _ = try await bob.previewInviteLink(code: expired.code)
            XCTFail("an expired link is refused")
        } catch {
            XCTAssertEqual(error.code, .inviteExpired)
            XCTAssertEqual(error.underlyingCode, "invite_link_expired")
        }
        do {
            _ = try await bob.joinByInviteLink(code: expired.code, preview: expired.preview)
            XCTFail("an expired link takes no request")
        } catch {
            XCTAssertEqual(error.underlyingCode, "invite_link_expired")
        }
        let revoked = try admin(seed: 8)  // its descriptor was never published (or was taken down)
        do {
            _ = try await bob.previewInviteLink(code: revoked.code, timeout: .seconds(2))
            XCTFail("a link with no descriptor is refused")
        } catch {
            XCTAssertEqual(error.code, .inviteRevoked)
            XCTAssertEqual(error.underlyingCode, "invite_link_preview_not_found")
        }
        let joins = try await bob.inviteLinkJoins()
        XCTAssertTrue(joins.isEmpty)
    }
}
