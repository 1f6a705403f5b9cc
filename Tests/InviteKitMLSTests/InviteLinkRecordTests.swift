import InviteKitCrypto
import InviteKitMLS
import InviteKitTestSupport
import XCTest

/// Requests, refreshes, withdrawals, statuses, admin records and batches, and the Nostr request
/// envelope (`invite-link-records.md`, `nostr-invite-links.md`; PROTOCOL §5.14.5–§5.14.8).
final class InviteLinkRecordTests: XCTestCase {
    typealias F = InviteLinkFixture

    func assertRecordRefused<T>(_ body: @autoclosure () throws -> T, _ code: MLSError.Code = .invalidInviteRecord, _ detail: String? = nil,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) {
            let e = $0 as? MLSError
            XCTAssertEqual(e?.code, code, "\($0)", file: file, line: line)
            if let detail { XCTAssertTrue(e?.detail.contains(detail) == true, "\($0)", file: file, line: line) }
        }
    }

    /// The fixture request's TBS with fields replaced.
    func tbs(revision: UInt32 = 0, previous: [UInt8] = [UInt8](repeating: 0, count: 32), bearer: [UInt8]? = nil,
             offer: [UInt8]? = nil) throws -> InviteRequestTBSV1 {
        let base = F.request.tbs
        return try InviteRequestTBSV1(context: base.context, revision: revision, previousRequestHash: previous,
                                      bearer: SecureBytes(copying: bearer ?? base.bearer.exportBytes()), keyPackageRef: base.keyPackageRef,
                                      transportOffer: offer ?? base.transportOffer)
    }

    // MARK: Requests

    func testRevisionEightRefused() throws {
        var bytes = F.bytes("request_hex")
        bytes.replaceSubrange(170..<174, with: [0, 0, 0, 8])
        bytes.replaceSubrange(174..<206, with: [UInt8](repeating: 0x67, count: 32))
        assertRecordRefused(try InviteRequestV1(decoding: bytes), .invalidInviteRecord, "revision 8")
        assertRecordRefused(try self.tbs(revision: 8, previous: [UInt8](repeating: 1, count: 32)), .invalidInviteRecord, "revision 8")
        XCTAssertNoThrow(try tbs(revision: 7, previous: [UInt8](repeating: 1, count: 32)))
    }

    func testPreviousHashRules() {
        assertRecordRefused(try self.tbs(revision: 0, previous: [UInt8](repeating: 1, count: 32)))
        assertRecordRefused(try self.tbs(revision: 1))
    }

    func testRequestStructureRefusals() throws {
        let bytes = F.bytes("request_hex")
        assertRecordRefused(try InviteRequestV1(decoding: bytes + [0]))
        assertRecordRefused(try InviteRequestV1(decoding: Array(bytes.dropLast())))
        var version = bytes
        version[1] = 2
        assertRecordRefused(try InviteRequestV1(decoding: version), .invalidInviteRecord, "version")
        var account = bytes
        account.replaceSubrange(98..<130, with: [UInt8](repeating: 0xff, count: 32))
        assertRecordRefused(try InviteRequestV1(decoding: account), .invalidInviteRecord, "requester_account")
        var consent = bytes
        consent.replaceSubrange(130..<162, with: [1] + [UInt8](repeating: 0, count: 31))  // the identity point
        assertRecordRefused(try InviteRequestV1(decoding: consent), .invalidInviteRecord, "consent_key")
        var validUntil = bytes
        validUntil.replaceSubrange(162..<170, with: [UInt8](repeating: 0, count: 8))
        assertRecordRefused(try InviteRequestV1(decoding: validUntil), .invalidInviteRecord, "valid_until")
        // The offer is a canonical Nostr offer: an unsorted hint list or a bare id is refused.
        assertRecordRefused(try self.tbs(offer: [UInt8](repeating: 5, count: 32)))
        var w = TLSWriter()
        w.writeBytes([UInt8](repeating: 5, count: 32))
        w.writeVector { for r in ["wss://b.example", "wss://a.example"] { $0.writeOpaque(Array(r.utf8)) } }
        assertRecordRefused(try self.tbs(offer: w.bytes))
        XCTAssertNoThrow(try tbs(offer: try NostrInviteOfferV1(keyPackageEventID: [UInt8](repeating: 5, count: 32), welcomeHints: []).encoded))
    }

    func testConsentSignatureBindsBytesAndLabel() throws {
        let request = F.request
        try request.verifyConsent()
        var tampered = request.encoded
        tampered[tampered.count - 1] ^= 1
        assertRecordRefused(try InviteRequestV1(decoding: tampered).verifyConsent(), .invalidSignature)
        var changed = request.encoded
        changed[210] ^= 1  // inside the bearer
        assertRecordRefused(try InviteRequestV1(decoding: changed).verifyConsent(), .invalidSignature)
        // The same key's request signature is no withdrawal signature, and the reverse.
        let context = request.tbs.context
        assertRecordRefused(try InviteConsentSignature.verify(.withdrawal, content: request.tbs.encoded, signature: request.consentSignature,
                                                              consentKey: context.consentKey), .invalidSignature)
        let withdrawal = try InviteWithdrawalV1(decoding: F.bytes("withdrawal_hex"))
        assertRecordRefused(try InviteConsentSignature.verify(.request, content: context.encoded, signature: withdrawal.consentSignature,
                                                              consentKey: context.consentKey), .invalidSignature)
        // Only the context's key signs.
        assertRecordRefused(try InviteRequestV1(signing: request.tbs, consentKey: Ed25519.PrivateKey()))
    }

    func testRefreshChain() throws {
        let request = F.request, refresh = try InviteRequestV1(decoding: F.bytes("refresh_hex"))
        try refresh.verifyRefresh(of: request)
        assertRecordRefused(try request.verifyRefresh(of: refresh))
        assertRecordRefused(try refresh.verifyRefresh(of: refresh))
        let key = F.consentKey
        let skip = try InviteRequestV1(signing: try tbs(revision: 2, previous: request.requestHash), consentKey: key)
        assertRecordRefused(try skip.verifyRefresh(of: request), .invalidInviteRecord, "does not follow")
        let wrongHash = try InviteRequestV1(signing: try tbs(revision: 1, previous: [UInt8](repeating: 9, count: 32)), consentKey: key)
        assertRecordRefused(try wrongHash.verifyRefresh(of: request), .invalidInviteRecord, "previous_request_hash")
        let newBearer = try InviteRequestV1(signing: try tbs(revision: 1, previous: request.requestHash, bearer: [UInt8](repeating: 0x23, count: 32)),
                                            consentKey: key)
        assertRecordRefused(try newBearer.verifyRefresh(of: request), .invalidInviteRecord, "bearer")
        let badSignature = try InviteRequestV1(tbs: refresh.tbs, consentSignature: request.consentSignature)
        assertRecordRefused(try badSignature.verifyRefresh(of: request), .invalidSignature)
    }

    func testWithdrawal() throws {
        let withdrawal = try InviteWithdrawalV1(decoding: F.bytes("withdrawal_hex"))
        try withdrawal.verifyConsent()
        XCTAssertEqual(withdrawal.encoded.count, InviteWithdrawalV1.byteCount)
        assertRecordRefused(try InviteWithdrawalV1(decoding: F.bytes("withdrawal_hex") + [0]))
        let forged = try InviteWithdrawalV1(context: withdrawal.context, consentSignature: [UInt8](repeating: 0, count: 64))
        assertRecordRefused(try forged.verifyConsent(), .invalidSignature)
    }

    // MARK: Status

    func testStatusOutcomeAndHashRules() throws {
        let context = F.request.tbs.context, hash = F.request.requestHash
        let one = [UInt8](repeating: 1, count: 32), zero = [UInt8](repeating: 0, count: 32)
        for outcome in [InviteStatusV1.Outcome.observed, .declined, .retired] {
            XCTAssertNoThrow(try InviteStatusV1(context: context, requestHash: hash, outcome: outcome))
            assertRecordRefused(try InviteStatusV1(context: context, requestHash: hash, outcome: outcome, commitHash: one))
            assertRecordRefused(try InviteStatusV1(context: context, requestHash: hash, outcome: outcome, welcomeHash: one))
        }
        XCTAssertNoThrow(try InviteStatusV1(context: context, requestHash: hash, outcome: .invited, commitHash: one, welcomeHash: one))
        assertRecordRefused(try InviteStatusV1(context: context, requestHash: hash, outcome: .invited, commitHash: one, welcomeHash: zero))
        assertRecordRefused(try InviteStatusV1(context: context, requestHash: hash, outcome: .invited, commitHash: zero, welcomeHash: one))
        var unknown = F.bytes("retired_status_hex")
        unknown[202] = 4
        assertRecordRefused(try InviteStatusV1(decoding: unknown), .invalidInviteRecord, "outcome 4")
        var retiredWithHash = F.bytes("retired_status_hex")
        retiredWithHash[210] = 1
        assertRecordRefused(try InviteStatusV1(decoding: retiredWithHash))
        let invited = try InviteStatusV1(decoding: F.bytes("status_hex"))
        XCTAssertEqual(try InviteStatusV1(content: invited.content).encoded, invited.encoded)
        assertRecordRefused(try InviteStatusV1(content: String(invited.content.dropLast())))
    }

    // MARK: Admin records and batches

    func record(_ action: UInt8, _ body: [UInt8], linkID: [UInt8] = [UInt8](repeating: 0x11, count: 32)) -> [UInt8] {
        var w = TLSWriter()
        w.writeOpaque(Array("g".utf8)); w.writeUInt64(7); w.writeBytes(linkID); w.writeUInt8(action); w.writeOpaque(body)
        return w.bytes
    }

    func grantBody(privateKey: [UInt8], code: [UInt8]? = nil, trailing: [UInt8] = []) -> [UInt8] {
        var w = TLSWriter()
        w.writeBytes(F.bytes("entry_hex")); w.writeBytes(privateKey); w.writeOpaque(code ?? F.bytes("code_hex")); w.writeBytes(trailing)
        return w.bytes
    }

    func testAdminRecordActionsAndBindings() throws {
        let key1 = [UInt8](repeating: 0, count: 31) + [1]
        XCTAssertNoThrow(try InviteAdminRecordV1(decoding: record(0, grantBody(privateKey: key1))))
        assertRecordRefused(try InviteAdminRecordV1(decoding: self.record(0, self.grantBody(privateKey: [UInt8](repeating: 0, count: 31) + [2]))),
                            .invalidInviteRecord, "derive")
        assertRecordRefused(try InviteAdminRecordV1(decoding: self.record(0, self.grantBody(privateKey: key1, trailing: [0]))))
        assertRecordRefused(try InviteAdminRecordV1(decoding: self.record(0, self.grantBody(privateKey: key1), linkID: [UInt8](repeating: 0x12, count: 32))))
        // A code whose bearer does not hash to the entry's commitment.
        var otherBearer = F.bytes("code_hex")
        otherBearer[66] ^= 1
        assertRecordRefused(try InviteAdminRecordV1(decoding: self.record(0, self.grantBody(privateKey: key1, code: otherBearer))),
                            .invalidInviteRecord, "bearer")
        let status = F.bytes("status_hex"), retired = F.bytes("retired_status_hex")
        XCTAssertNoThrow(try InviteAdminRecordV1(decoding: record(4, status)))
        assertRecordRefused(try InviteAdminRecordV1(decoding: self.record(3, status)))
        assertRecordRefused(try InviteAdminRecordV1(decoding: self.record(4, retired)))
        XCTAssertNoThrow(try InviteAdminRecordV1(decoding: record(2, F.bytes("withdrawal_hex"))))
        assertRecordRefused(try InviteAdminRecordV1(decoding: self.record(5, status)), .invalidInviteRecord, "unknown admin action")
        assertRecordRefused(try InviteAdminRecordV1(decoding: self.record(2, F.bytes("withdrawal_hex") + [0])))
        assertRecordRefused(try InviteAdminRecordV1(decoding: F.bytes("grant_record_hex") + [0]))
        // Forwarded requests need publication evidence.
        var w = TLSWriter()
        w.writeBytes(F.bytes("request_hex")); w.writeOpaque([UInt8]())
        assertRecordRefused(try InviteAdminRecordV1(decoding: self.record(1, w.bytes)))
        let forward = try InviteAdminRecordV1(decoding: F.bytes("forward_record_hex"))
        XCTAssertEqual(try InviteAdminRecordV1(content: forward.content).encoded, forward.encoded)
        var emptyGroup = F.bytes("forward_record_hex")
        emptyGroup.replaceSubrange(0..<24, with: [0])
        assertRecordRefused(try InviteAdminRecordV1(decoding: emptyGroup))
    }

    func testAdminBatchBounds() throws {
        func envelope(_ n: UInt8, size: Int = 10) throws -> InviteAdminBatchV1.Envelope {
            try InviteAdminBatchV1.Envelope(recipientAccount: F.xOnly(n), transportEnvelope: [UInt8](repeating: n, count: size))
        }
        let sixteen = try (1...16).map { try envelope(UInt8($0)) }
        let batch = try InviteAdminBatchV1(envelopes: sixteen)
        XCTAssertEqual(try InviteAdminBatchV1(decoding: batch.encoded), batch)
        XCTAssertEqual(try InviteAdminBatchV1(content: batch.content), batch)
        assertRecordRefused(try InviteAdminBatchV1(envelopes: try (1...17).map { try envelope(UInt8($0)) }))
        assertRecordRefused(try InviteAdminBatchV1(envelopes: []))
        assertRecordRefused(try InviteAdminBatchV1(envelopes: [try envelope(1), try envelope(1)]))
        assertRecordRefused(try envelope(1, size: 90001))
        assertRecordRefused(try envelope(1, size: 0))
        // Three full envelopes exceed the batch vector.
        XCTAssertNoThrow(try InviteAdminBatchV1(envelopes: [try envelope(1, size: 90000), try envelope(2, size: 90000)]))
        assertRecordRefused(try InviteAdminBatchV1(envelopes: try (1...3).map { try envelope(UInt8($0), size: 90000) }))
        // The decoder does not sort.
        let two = try InviteAdminBatchV1(envelopes: [try envelope(1), try envelope(2)])
        let sortedAccounts = two.envelopes.map(\.recipientAccount)
        var w = TLSWriter()
        w.writeVector { for e in two.envelopes.reversed() { $0.writeBytes(e.recipientAccount); $0.writeOpaque(e.transportEnvelope) } }
        XCTAssertNotEqual(sortedAccounts[0], sortedAccounts[1])
        assertRecordRefused(try InviteAdminBatchV1(decoding: w.bytes), .invalidInviteRecord, "sorted")
    }

    // MARK: Nostr request envelope

    func testNostrInviteRequestOperations() throws {
        let request = try NostrInviteRequestV1(.request(F.request))
        XCTAssertEqual(try NostrInviteRequestV1(content: request.content).encoded, request.encoded)
        let withdrawal = try NostrInviteRequestV1(.withdrawal(try InviteWithdrawalV1(decoding: F.bytes("withdrawal_hex"))))
        XCTAssertEqual(try NostrInviteRequestV1(decoding: withdrawal.encoded).encoded, withdrawal.encoded)
        var unknown = request.encoded
        unknown[0] = 2
        assertRecordRefused(try NostrInviteRequestV1(decoding: unknown), .invalidInviteRecord, "operation 2")
        var mismatched = request.encoded
        mismatched[0] = 1
        assertRecordRefused(try NostrInviteRequestV1(decoding: mismatched))
        assertRecordRefused(try NostrInviteRequestV1(content: request.content.replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_") + "A"))
    }
}
