import InviteKitCrypto
@testable import InviteKitMLS
import InviteKitTestSupport
import XCTest

/// The requester's attempt as the node stores it (PROTOCOL §5.14.16): every field survives the
/// sealed form, the restored attempt goes on exactly where it stopped, and bytes that do not
/// form one attempt are refused.
final class InviteLinkJoinAttemptSerializationTests: XCTestCase {
    /// The consent of `InviteLinkJoinAttemptTests`, in the shape its tests make it.
    struct Fixture {
        let now: UInt64 = 1_800_000_000
        let inviter = InviteLinkFixture.xOnly(9)
        let code = try! InviteCodeV1(inboxPublicKey: InviteLinkFixture.xOnly(7), linkID: [UInt8](repeating: 0x11, count: 32),
                                     bearer: SecureBytes(copying: [UInt8](repeating: 0x5a, count: 32)),
                                     previewKey: SecureBytes(copying: [UInt8](repeating: 0x33, count: 32)), requestRelays: ["wss://relay.example"])

        func preview() throws -> InvitePreviewV1 {
            try InvitePreviewV1(inboxPublicKey: code.inboxPublicKey, linkID: code.linkID, bearerHash: code.bearerHash, expiresAt: 0,
                                approvalMode: .manual, name: "Book club", description: "", imageType: .none, image: [])
        }

        func links(for p: InvitePreviewV1) throws -> InviteLinksV1 {
            try InviteLinksV1(links: [InviteLinkV1(linkID: p.linkID, inboxPublicKey: p.inboxPublicKey, bearerHash: p.bearerHash,
                                                   previewHash: p.previewHash, expiresAt: p.expiresAt, approvalMode: p.approvalMode)])
        }

        func consent(key: Ed25519.PrivateKey = Ed25519.PrivateKey()) throws -> InviteLinkJoinAttempt {
            try InviteLinkJoinAttempt.consent(code: code, preview: try preview(), requestID: [UInt8](repeating: 1, count: 32),
                                              account: InviteLinkFixture.xOnly(3), consentKey: key, keyPackageRef: [UInt8](repeating: 0x41, count: 32),
                                              transportOffer: InviteLinkFixture.request.tbs.transportOffer, validUntil: now + 86_400, now: now)
        }
    }

    func testEveryFieldSurvivesAndTheRestoredAttemptContinuesTheChain() throws {
        let f = Fixture()
        let key = Ed25519.PrivateKey()
        var attempt = try f.consent(key: key)
        _ = try attempt.refresh(keyPackageRef: [UInt8](repeating: 0x42, count: 32), transportOffer: InviteLinkFixture.request.tbs.transportOffer, now: f.now)
        let invited = try InviteStatusV1(context: attempt.context, requestHash: attempt.requests[1].requestHash, outcome: .invited,
                                         commitHash: [UInt8](repeating: 7, count: 32), welcomeHash: [UInt8](repeating: 8, count: 32))
        try attempt.receive(invited, author: f.inviter)
        let declined = try InviteStatusV1(context: attempt.context, requestHash: attempt.requests[0].requestHash, outcome: .declined)
        try attempt.receive(declined, author: InviteLinkFixture.xOnly(5))

        var restored = try InviteLinkJoinAttempt(serialized: attempt.serialized())
        XCTAssertEqual(restored.context, attempt.context)
        XCTAssertEqual(restored.previewAtConsent, attempt.previewAtConsent)
        XCTAssertEqual(restored.requests.map(\.encoded), attempt.requests.map(\.encoded))
        XCTAssertEqual(restored.notices, attempt.notices)
        XCTAssertEqual(restored.state(at: f.now), .invited)
        XCTAssertEqual(restored.serialized().exportBytes(), attempt.serialized().exportBytes(), "the same attempt, the same bytes")

        // The restored attempt signs the next revision with the same consent key and bearer.
        let next = try restored.refresh(keyPackageRef: [UInt8](repeating: 0x43, count: 32), transportOffer: InviteLinkFixture.request.tbs.transportOffer,
                                        now: f.now)
        XCTAssertNoThrow(try next.verifyRefresh(of: attempt.requests[1]))

        // A matched Welcome and its association survive too.
        let state = try restored.acceptWelcome(groupID: [1, 2, 3], links: try f.links(for: try f.preview()), keyPackageRef: [UInt8](repeating: 0x42, count: 32),
                                               welcomeHash: [UInt8](repeating: 8, count: 32), inviter: f.inviter, now: f.now)
        XCTAssertEqual(state, .joined)
        let joined = try InviteLinkJoinAttempt(serialized: restored.serialized())
        XCTAssertEqual(joined.state(at: f.now), .joined)
        XCTAssertEqual(joined.welcome?.groupID, [1, 2, 3])
        XCTAssertEqual(joined.associatedStatus, invited)

        var withdrawn = try f.consent()
        _ = try withdrawn.withdraw(now: f.now)
        XCTAssertEqual(try InviteLinkJoinAttempt(serialized: withdrawn.serialized()).state(at: f.now), .withdrawn)
    }

    func testBytesThatAreNotOneAttemptAreRefused() throws {
        let f = Fixture()
        let attempt = try f.consent()
        let bytes = attempt.serialized().exportBytes()
        // Truncated, trailing byte, unknown version, another consent key.
        for bad in [Array(bytes.dropLast()), bytes + [0], [2] + bytes.dropFirst()] {
            XCTAssertThrowsError(try InviteLinkJoinAttempt(serialized: SecureBytes(copying: bad)))
        }
        var otherKey = bytes
        otherKey.replaceSubrange(1..<33, with: Ed25519.PrivateKey().rawRepresentation.exportBytes())
        XCTAssertThrowsError(try InviteLinkJoinAttempt(serialized: SecureBytes(copying: otherKey))) { e in
            XCTAssertEqual((e as? MLSError)?.code, .invalidValue)
        }
        XCTAssertThrowsError(try InviteLinkJoinAttempt(serialized: SecureBytes(copying: [])))
    }
}
