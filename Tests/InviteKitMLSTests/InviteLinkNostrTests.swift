import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr
import InviteKitTestSupport
import XCTest

/// The Nostr binding of invite links (PROTOCOL §5.14.12): the kind 30444 descriptor, the kind 459
/// request wrap and the kind 460 status wrap, each with the forgeries it must refuse.
final class InviteLinkNostrTests: XCTestCase {
    typealias F = InviteLinkFixture
    let now: Int64 = 1_800_000_000
    let inboxKey = F.privateKey(7)
    let account = F.privateKey(3)
    let admin = F.privateKey(9)
    let linkID = [UInt8](repeating: 0xab, count: 32)
    let previewKey = SecureBytes(copying: [UInt8](repeating: 0x33, count: 32))
    let bearer = SecureBytes(copying: [UInt8](repeating: 0x5a, count: 32))

    var code: InviteCodeV1 {
        try! InviteCodeV1(inboxPublicKey: inboxKey.publicKey.rawRepresentation, linkID: linkID, bearer: bearer, previewKey: previewKey,
                          requestRelays: ["wss://relay.example"])
    }

    func preview(_ name: String = "Book club") throws -> InvitePreviewV1 {
        try InvitePreviewV1(inboxPublicKey: code.inboxPublicKey, linkID: linkID, bearerHash: code.bearerHash, expiresAt: 0,
                            approvalMode: .automatic, name: name, description: "Tuesdays", imageType: .none, image: [])
    }

    func attempt() throws -> InviteLinkJoinAttempt {
        try InviteLinkJoinAttempt.consent(code: code, preview: try preview(), requestID: [UInt8](repeating: 1, count: 32),
                                          account: account.publicKey.rawRepresentation, consentKey: Ed25519.PrivateKey(),
                                          keyPackageRef: [UInt8](repeating: 0x41, count: 32), transportOffer: F.request.tbs.transportOffer,
                                          validUntil: UInt64(now) + 86_400, now: UInt64(now))
    }

    func assertRefused<T>(_ body: @autoclosure () throws -> T, _ code: MLSError.Code, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { XCTAssertEqual(($0 as? MLSError)?.code, code, "\($0)", file: file, line: line) }
    }

    func testDescriptorOpensOnlyAsSpecifiedAndTheLatestIsShown() throws {
        let event = try InvitePreviewDescriptorEvent.make(try preview(), previewKey: previewKey, inboxKey: inboxKey, now: now)
        XCTAssertEqual(event.kind, 30444)
        XCTAssertEqual(event.tags, [["d", Hex.encode(linkID)]])
        XCTAssertEqual(try InvitePreviewDescriptorEvent.open(event, code: code), try preview())

        func resigned(_ change: (inout EventTemplate) -> Void, by key: Secp256k1.PrivateKey? = nil) throws -> NostrEvent {
            var t = EventTemplate(kind: event.kind, content: event.content, tags: event.tags, createdAt: event.createdAt)
            change(&t)
            return try t.signed(by: key ?? inboxKey)
        }
        assertRefused(try InvitePreviewDescriptorEvent.open(try resigned({ $0.tags = [["d", Hex.encode(self.linkID).uppercased()]] }), code: code),
                      .invalidInvitePreview)
        assertRefused(try InvitePreviewDescriptorEvent.open(try resigned({ $0.tags.append(["p", "00"]) }), code: code), .invalidInvitePreview)
        assertRefused(try InvitePreviewDescriptorEvent.open(try resigned({ $0.kind = 30445 }), code: code), .invalidInvitePreview)
        assertRefused(try InvitePreviewDescriptorEvent.open(try resigned({ _ in }, by: admin), code: code), .invalidInvitePreview)
        var forged = event
        forged.content = try preview("Swapped").descriptorContent(previewKey: previewKey)
        assertRefused(try InvitePreviewDescriptorEvent.open(forged, code: code), .invalidInvitePreview)
        XCTAssertThrowsError(try InvitePreviewDescriptorEvent.make(try preview(), previewKey: previewKey, inboxKey: admin, now: now))

        // Replacement order: latest created_at, then lowest id; a newer one that does not open is skipped.
        let newer = try InvitePreviewDescriptorEvent.make(try preview("Renamed"), previewKey: previewKey, inboxKey: inboxKey, now: now + 10)
        let newest = try resigned({ $0.createdAt = self.now + 20; $0.kind = 1 })
        XCTAssertEqual(InvitePreviewDescriptorEvent.select([event, newest, newer], code: code)?.preview.name, "Renamed")
        let twin = try InvitePreviewDescriptorEvent.make(try preview("Twin"), previewKey: previewKey, inboxKey: inboxKey, now: now + 10)
        let lower = min(newer.id, twin.id)
        XCTAssertEqual(InvitePreviewDescriptorEvent.select([twin, newer], code: code)?.event.id, lower)
        XCTAssertEqual(InvitePreviewDescriptorEvent.select([newer, twin], code: code)?.event.id, lower)
    }

    func testRequestWrapReachesTheInboxAndTheAdminAdmitsIt() throws {
        let a = try attempt()
        let r0 = a.requests[0]
        let wrap = try InviteRequestGiftWrap.make(.request(r0), account: account, now: now)
        XCTAssertEqual(wrap.tagValues("p"), [inboxKey.publicKey.hex])
        guard case .request(let opened) = try InviteRequestGiftWrap.open(wrap, inboxKey: inboxKey) else { return XCTFail("not a request") }
        XCTAssertEqual(opened.encoded, r0.encoded)
        var ledger = InviteRequestLedger()
        let entry = try InviteLinkV1(linkID: linkID, inboxPublicKey: code.inboxPublicKey, bearerHash: code.bearerHash,
                                     previewHash: try preview().previewHash, expiresAt: 0, approvalMode: .automatic)
        XCTAssertEqual(try ledger.admit(opened, entry: entry, now: UInt64(now)), .admitted)

        // Both layers were checked against 65535 bytes, and the seal's size was computed exactly.
        let gift = try GiftWrap.unwrap(wrap, recipient: inboxKey)
        XCTAssertEqual(gift.seal.jsonBytes.count, InviteLinkNostr.sealJSONBytes(forPlaintext: gift.rumor.jsonBytes.count))
        // Only the inbox opens it.
        assertRefused(try InviteRequestGiftWrap.open(wrap, inboxKey: admin), .invalidInviteRecord)
        // Another account cannot send this requester's record: make refuses, and a hand-made wrap is refused.
        assertRefused(try InviteRequestGiftWrap.make(.request(r0), account: admin, now: now), .invalidInviteRecord)
        let content = try NostrInviteRequestV1(.request(r0)).content
        let foreign = try GiftWrap.wrap(EventTemplate(kind: 459, content: content).rumor(pubkey: admin.publicKey, now: now),
                                        from: admin, to: inboxKey.publicKey, now: now)
        assertRefused(try InviteRequestGiftWrap.open(foreign, inboxKey: inboxKey), .invalidInviteRecord)
        // A rumor of another kind or with tags is refused before the record is read.
        for template in [EventTemplate(kind: 14, content: content), EventTemplate(kind: 459, content: content, tags: [["e", "00"]])] {
            let w = try GiftWrap.wrap(template.rumor(pubkey: account.publicKey, now: now), from: account, to: inboxKey.publicKey, now: now)
            assertRefused(try InviteRequestGiftWrap.open(w, inboxKey: inboxKey), .invalidInviteRecord)
        }
        // A wrap over 90000 bytes is refused before any decryption.
        var huge = wrap
        huge.content += String(repeating: "A", count: InviteLinkNostr.maxGiftWrapJSONBytes)
        assertRefused(try InviteRequestGiftWrap.open(huge, inboxKey: inboxKey), .invalidInviteRecord)
    }

    func testWithdrawalWrapClosesTheAdminsContext() throws {
        var a = try attempt()
        var ledger = InviteRequestLedger()
        let entry = try InviteLinkV1(linkID: linkID, inboxPublicKey: code.inboxPublicKey, bearerHash: code.bearerHash,
                                     previewHash: try preview().previewHash, expiresAt: 0, approvalMode: .automatic)
        _ = try ledger.admit(a.requests[0], entry: entry, now: UInt64(now))
        let wrap = try InviteRequestGiftWrap.make(.withdrawal(try a.withdraw(now: UInt64(now))), account: account, now: now)
        guard case .withdrawal(let w) = try InviteRequestGiftWrap.open(wrap, inboxKey: inboxKey) else { return XCTFail("not a withdrawal") }
        XCTAssertEqual(try ledger.withdraw(w, at: UInt64(now)), .withdrawn)
    }

    func testStatusWrapIsAttributedToItsAdminAndOnlyForItsRequester() throws {
        var a = try attempt()
        let status = try InviteStatusV1(context: a.context, requestHash: a.requests[0].requestHash, outcome: .declined)
        let wrap = try InviteStatusGiftWrap.make(status, admin: admin, now: now)
        XCTAssertEqual(wrap.tagValues("p"), [account.publicKey.hex], "to the requester's account, never the inbox")
        let (author, opened) = try InviteStatusGiftWrap.open(wrap, account: account)
        XCTAssertEqual(author, admin.publicKey.rawRepresentation)
        try a.receive(opened, author: author)
        XCTAssertEqual(a.notices.map(\.author), [admin.publicKey.rawRepresentation])
        // A status for this requester wrapped to someone else is refused there.
        let other = F.privateKey(12)
        let misdirected = try GiftWrap.wrap(EventTemplate(kind: 460, content: status.content).rumor(pubkey: admin.publicKey, now: now),
                                            from: admin, to: other.publicKey, now: now)
        assertRefused(try InviteStatusGiftWrap.open(misdirected, account: other), .invalidInviteRecord)
    }
}
