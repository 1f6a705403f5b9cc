import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit
@testable import InviteKitMLS

/// The joiner's invite-link flow over the real nostr-relay on loopback (issue 29): an admin built
/// from the protocol core publishes the descriptor; the joiner previews with nothing published,
/// consents, and joins on an `invited` status and the Welcome; a declined request ends.
/// The code names `wss://` relays (the code profile allows no other scheme); the connector takes
/// them to the loopback relay.
final class InviteLinkJoinRealRelayTests: RealRelayNodeTestCase {

    private func admin(seed: UInt64) throws -> InviteLinkTestAdmin {
        let local = relay.url
        return try InviteLinkTestAdmin(codeRelays: [Self.codeRelay], groupRelays: [local], seed: seed, now: UnixTime.now(),
                                       connect: { WebSocketRelayClient(url: local) })
    }

    /// Every event the relay stores, whatever its kind.
    private func stored() async -> Int {
        let pool = RelayPool([WebSocketRelayClient(url: relay.url)])
        let result = await pool.fetch([NostrFilter(limit: 5000)], timeout: .seconds(10))
        await pool.close()
        return result.events.count
    }

    private func firstRequest(_ admin: InviteLinkTestAdmin) async throws -> InviteRequestV1? {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            for op in try await admin.requests() { if case .request(let r) = op { return r } }
            try await Task.sleep(for: .milliseconds(200))
        }
        return nil
    }

    func testPreviewPublishesNothingThenConsentInvitedStatusAndWelcomeJoin() async throws {
        var admin = try admin(seed: 11)
        try await admin.publishDescriptor()
        let bob = try node("bob", seed: 2)
        let before = await stored()
        let opened = try await bob.previewInviteLink(code: admin.code)
        XCTAssertEqual(opened.preview, admin.preview)
        let after = await stored()
        XCTAssertEqual(after, before, "the relay received nothing from the preview")

        let runner = bob.runInBackground()
        defer { runner.cancel() }
        let started = try await bob.joinByInviteLink(code: admin.code, preview: opened.preview)
        let request = try await firstRequest(admin)
        let received = try XCTUnwrap(request, "the 459 request reached the relay and opens with the inbox key")
        XCTAssertEqual(Hex.encode(received.tbs.context.requestID), started.requestID)
        XCTAssertNoThrow(try received.verifyConsent())

        try await admin.approve(received)
        let joined = try await bob.waitForInviteLinkJoin(started.requestID, timeout: .seconds(30))
        XCTAssertEqual(joined.groupID, Hex.encode(admin.group.state.groupID))
        let group = try await bob.group(try XCTUnwrap(joined.groupID))
        XCTAssertEqual(group.name, "Hikers")
    }

    func testADeclinedStatusEndsTheAttempt() async throws {
        let admin = try admin(seed: 12)
        try await admin.publishDescriptor()
        let bob = try node("bob", seed: 3)
        let runner = bob.runInBackground()
        defer { runner.cancel() }
        let opened = try await bob.previewInviteLink(code: admin.code)
        let started = try await bob.joinByInviteLink(code: admin.code, preview: opened.preview)
        let first = try await firstRequest(admin)
        let request = try XCTUnwrap(first)
        try await admin.send(.declined, for: request)
        do {
            _ = try await bob.waitForInviteLinkJoin(started.requestID, timeout: .seconds(30))
            XCTFail("declined")
        } catch {
            XCTAssertEqual(error.underlyingCode, "invite_link_declined")
        }
        let join = try await bob.inviteLinkJoin(started.requestID)
        XCTAssertEqual(join.status, .declined)
    }
}
