import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit
@testable import InviteKitMLS

/// Invite links v1 node to node over the real nostr-relay on loopback (issue 29): an admin
/// node's link (PROTOCOL §5.14.15) is previewed and joined by a joiner node (§5.14.16), with
/// nothing hand-built on either side. Manual approval, an automatic link, a second admin's
/// decision, and the refusals of a revoked and an expired link.
/// The code names `wss://` relays (the code profile allows no other scheme); the connector takes
/// them to the loopback relay.
final class InviteLinkEndToEndRealRelayTests: RealRelayNodeTestCase {

    /// Every event the relay stores, whatever its kind.
    private func stored() async -> Int {
        let pool = RelayPool([WebSocketRelayClient(url: relay.url)])
        let result = await pool.fetch([NostrFilter(limit: 5000)], timeout: .seconds(10))
        await pool.close()
        return result.events.count
    }

    /// The first request `node` announces.
    private func received(_ events: AsyncStream<NodeEvent>) async -> String? {
        await NodeEventWait.first(in: events, timeout: .seconds(60)) { event -> String? in
            if case .inviteRequestReceived(_, let requestID, _) = event { return requestID }
            return nil
        }
    }

    /// Whether `a` and `b` list each other as members and a message from each reaches the other.
    private func assertMembersTalk(_ a: InviteKitNode, _ b: InviteKitNode, group: String) async throws {
        let bothListed = try await waitFor {
            let am = try await a.members(of: group).members.map(\.publicKey), bm = try await b.members(of: group).members.map(\.publicKey)
            return am.contains(b.publicKey) && bm.contains(a.publicKey)
        }
        XCTAssertTrue(bothListed, "each lists the other as a member")
        for (from, to) in [(a, b), (b, a)] {
            let sent = try await from.send(kind: 9, content: "hello from \(from.publicKey.hex.prefix(8))", to: group)
            let arrived = try await waitFor { try await to.history(of: group).contains { $0.appEventID == sent.appEventID } }
            XCTAssertTrue(arrived, "the message reached the other member")
        }
    }

    /// The join is `joined`: the Welcome matched and the admin's `invited` status (which may come
    /// after the Welcome, `joined_unassociated` meanwhile) associates it with the request.
    private func assertAssociated(_ joiner: InviteKitNode, _ requestID: String) async throws {
        let associated = try await waitFor { try await joiner.inviteLinkJoin(requestID).status == .joined }
        let status = try await joiner.inviteLinkJoin(requestID).status
        XCTAssertTrue(associated, "the invited status associated the join: \(status)")
    }

    func testAJoinerNodePreviewsRequestsAndIsApprovedByHandByAnAdminNode() async throws {
        let ada = try node("ada", seed: 1), bob = try node("bob", seed: 2)
        let adaRun = ada.runInBackground()
        defer { adaRun.cancel() }
        let adaEvents = ada.events(bufferingNewest: 1024)
        let group = try await ada.createGroup(name: "Hikers")
        let link = try await ada.createInviteLink(in: group.id, name: "Hikers", description: "Sunday walks", requestRelays: [Self.codeRelay],
                                                  timeout: .seconds(30))
        // The descriptor is gated on the Commit: wait for a preview to find it.
        var opened: InviteLinkPreview?
        let published = try await waitFor(30) {
            opened = try? await bob.previewInviteLink(code: link.code.bech32m)
            return opened != nil
        }
        XCTAssertTrue(published, "the admin's descriptor reached the code's relay")
        let before = await stored()
        let preview = try await bob.previewInviteLink(code: link.code.bech32m)
        let after = await stored()
        XCTAssertEqual(after, before, "the relay received nothing from the preview")
        XCTAssertEqual(preview.preview.name, "Hikers")
        XCTAssertEqual(preview.preview.description, "Sunday walks")

        let bobRun = bob.runInBackground()
        defer { bobRun.cancel() }
        let started = try await bob.joinByInviteLink(code: link.code.bech32m, preview: preview.preview)
        let announced = await received(adaEvents)
        let waiting = try await ada.inviteRequests(in: group.id)
        XCTAssertEqual(waiting.map(\.requester), [bob.publicKey])
        XCTAssertEqual(waiting.map(\.requestID), [try XCTUnwrap(announced, "the admin node announced the joiner's request")])
        // The admin names it by its context id; the requester's own id (its request_id) works too.
        let commit = try await ada.decideInviteRequest(started.requestID, in: group.id, approve: true)
        XCTAssertNotNil(commit, "an approval is an Add")

        let joined = try await bob.waitForInviteLinkJoin(started.requestID, timeout: .seconds(90))
        XCTAssertEqual(joined.groupID, group.id)
        try await assertAssociated(bob, started.requestID)
        try await assertMembersTalk(ada, bob, group: group.id)
    }

    func testAnAutomaticLinkJoinsWithoutAnAdminAndASecondAdminDecides() async throws {
        let ada = try node("ada", seed: 11), dee = try node("dee", seed: 12), kim = try node("kim", seed: 13), joe = try node("joe", seed: 14)
        let runs = [ada, dee, kim, joe].map { $0.runInBackground() }
        defer { for r in runs { r.cancel() } }
        let group = try await ada.createGroup(name: "Club")

        // Automatic approval: no admin call between the request and the join.
        let automatic = try await ada.createInviteLink(in: group.id, approval: .automatic, requestRelays: [Self.codeRelay], timeout: .seconds(30))
        var opened: InviteLinkPreview?
        let published = try await waitFor(30) {
            opened = try? await kim.previewInviteLink(code: automatic.code.bech32m)
            return opened != nil
        }
        XCTAssertTrue(published)
        let kimPreview = try XCTUnwrap(opened)
        XCTAssertEqual(kimPreview.preview.approvalMode, .automatic)
        let kimJoin = try await kim.joinByInviteLink(code: automatic.code.bech32m, preview: kimPreview.preview)
        let kimJoined = try await kim.waitForInviteLinkJoin(kimJoin.requestID, timeout: .seconds(90))
        XCTAssertEqual(kimJoined.groupID, group.id)
        try await assertAssociated(kim, kimJoin.requestID)
        try await assertMembersTalk(ada, kim, group: group.id)

        // Dee joins by an ordinary invite and is promoted; Ada's next link reaches her as a grant.
        let invite = try await ada.createInvite(groupID: group.id, singleUse: false, expiresIn: 3600)
        _ = try await dee.join(invite.url, timeout: .seconds(60))
        _ = try await ada.waitForCommit(try await ada.promoteAdmin(dee.publicKey, in: group.id), timeout: .seconds(30))
        let promoted = try await waitFor { try await dee.currentGroup(group.id).isAdmin }
        XCTAssertTrue(promoted)
        let manual = try await ada.createInviteLink(in: group.id, requestRelays: [Self.codeRelay], timeout: .seconds(30))
        let granted = try await waitFor { try await dee.inviteLinks(in: group.id).contains { $0.linkID == manual.linkID } }
        XCTAssertTrue(granted, "the second admin holds the link")

        let deeEvents = dee.events(bufferingNewest: 1024)
        var joePreview: InviteLinkPreview?
        let found = try await waitFor(30) {
            joePreview = try? await joe.previewInviteLink(code: manual.code.bech32m)
            return joePreview != nil
        }
        XCTAssertTrue(found)
        let joeJoin = try await joe.joinByInviteLink(code: manual.code.bech32m, preview: try XCTUnwrap(joePreview).preview)
        let deeSaw = await received(deeEvents)
        XCTAssertNotNil(deeSaw, "the second admin sees the request")
        let adaSaw = try await waitFor { try await ada.inviteRequests(in: group.id).contains { $0.requester == joe.publicKey } }
        XCTAssertTrue(adaSaw, "the creating admin sees it too")
        let commit = try await dee.decideInviteRequest(try XCTUnwrap(deeSaw), in: group.id, approve: true)
        XCTAssertNotNil(commit)
        let joeJoined = try await joe.waitForInviteLinkJoin(joeJoin.requestID, timeout: .seconds(90))
        XCTAssertEqual(joeJoined.groupID, group.id)
        try await assertAssociated(joe, joeJoin.requestID)
        try await assertMembersTalk(dee, joe, group: group.id)
    }

    func testARevokedAndAnExpiredLinkAreRefusedAtPreviewAndJoin() async throws {
        let ada = try node("ada", seed: 21), bob = try node("bob", seed: 22)
        let runs = [ada, bob].map { $0.runInBackground() }
        defer { for r in runs { r.cancel() } }
        let group = try await ada.createGroup(name: "Club")

        let revoked = try await ada.createInviteLink(in: group.id, requestRelays: [Self.codeRelay], timeout: .seconds(30))
        var opened: InviteLinkPreview?
        let published = try await waitFor(30) {
            opened = try? await bob.previewInviteLink(code: revoked.code.bech32m)
            return opened != nil
        }
        XCTAssertTrue(published)
        try await ada.revokeInviteLink(revoked.linkID, in: group.id, timeout: .seconds(30))
        var refusal: InviteKitError?
        let gone = try await waitFor(30) {
            do { _ = try await bob.previewInviteLink(code: revoked.code.bech32m) } catch {
                refusal = error as? InviteKitError
                return true
            }
            return false
        }
        XCTAssertTrue(gone, "the revoked link's descriptor was deleted")
        XCTAssertEqual(refusal?.code, .inviteRevoked)
        XCTAssertTrue("\(String(describing: refusal))".contains("revoked"), "the message says why: \(String(describing: refusal))")

        // Expiry is in the signed preview: preview and join both refuse it.
        let expiresAt = UInt64(UnixTime.now() + 8)
        let expiring = try await ada.createInviteLink(in: group.id, expiresAt: expiresAt, requestRelays: [Self.codeRelay], timeout: .seconds(30))
        var expiringPreview: InviteLinkPreview?
        var expired: InviteKitError?
        let refused = try await waitFor(30) {
            do { expiringPreview = try await bob.previewInviteLink(code: expiring.code.bech32m) } catch {
                expired = error as? InviteKitError
                return expired?.code == .inviteExpired
            }
            return false
        }
        XCTAssertTrue(refused, "an expired link is refused at preview: \(String(describing: expired))")
        XCTAssertTrue("\(String(describing: expired))".contains("expired"), "the message says why: \(String(describing: expired))")
        let seen = try XCTUnwrap(expiringPreview, "the preview opened before the link expired")
        do {
            _ = try await bob.joinByInviteLink(code: expiring.code.bech32m, preview: seen.preview)
            XCTFail("an expired link admits no request")
        } catch {
            XCTAssertEqual(error.code, .inviteExpired)
            XCTAssertTrue("\(error)".contains("expired"), "the message says why: \(error)")
        }
    }
}
