import InviteKitCrypto
import InviteKitMLS
import InviteKitTestSupport
import XCTest

/// Creating a generation and granting it to another admin (PROTOCOL §5.14.13), end to end with the
/// descriptor, the requester and the ledger.
final class InviteLinkGenerationTests: XCTestCase {
    let now: UInt64 = 1_800_000_000
    let relays = ["wss://relay.example"]

    func testAFreshGenerationIsIndependentAndSelfConsistent() throws {
        let a = try InviteLinkGeneration.create(name: "Book club", approvalMode: .automatic, requestRelays: relays)
        let b = try InviteLinkGeneration.create(name: "Book club", approvalMode: .automatic, requestRelays: relays)
        XCTAssertNotEqual(a.entry.linkID, b.entry.linkID)
        XCTAssertNotEqual(a.entry.inboxPublicKey, b.entry.inboxPublicKey)
        XCTAssertFalse(a.code.bearer.constantTimeEquals(b.code.bearer))
        XCTAssertEqual(try a.inboxKey.publicKey.rawRepresentation, a.entry.inboxPublicKey)
        let preview = try XCTUnwrap(a.preview)
        XCTAssertNoThrow(try a.verify(preview))
        XCTAssertNoThrow(try InviteLinksV1(links: [a.entry, b.entry]))
        // The code round-trips through its text form and still opens the preview it commits to.
        let text = a.code.bech32m
        let code = try InviteCodeV1(bech32m: text)
        let descriptor = try InvitePreviewDescriptorEvent.make(preview, previewKey: a.code.previewKey, inboxKey: try a.inboxKey, now: Int64(now))
        XCTAssertEqual(try InvitePreviewDescriptorEvent.open(descriptor, code: code), preview)
    }

    func testAGrantWorksOnlyForTheCurrentEntryAndReachesTheSameRequests() throws {
        let gen = try InviteLinkGeneration.create(name: "Club", approvalMode: .manual, requestRelays: relays)
        let current = try InviteLinksV1(links: [gen.entry])
        let record = try InviteAdminRecordV1(decoding: try gen.grant(groupID: [1, 2], sourceEpoch: 4).encoded)
        let granted = try InviteLinkGeneration(grant: record, current: current)
        XCTAssertEqual(granted.entry, gen.entry)
        XCTAssertNil(granted.preview)
        XCTAssertNoThrow(try granted.verify(try XCTUnwrap(gen.preview)))
        XCTAssertEqual(try granted.inboxKey.publicKey.rawRepresentation, gen.entry.inboxPublicKey)

        // A grant for a retired generation is refused, as is one whose code opens another entry.
        XCTAssertThrowsError(try InviteLinkGeneration(grant: record, current: .empty)) {
            XCTAssertEqual(($0 as? MLSError)?.code, .inviteLinkInactive)
        }
        let other = try InviteLinkGeneration.create(name: "Other", approvalMode: .manual, requestRelays: relays)
        XCTAssertThrowsError(try InviteAdminRecordV1(groupID: [1, 2], sourceEpoch: 4, linkID: gen.entry.linkID,
                                                     action: .grant(entry: gen.entry, inboxPrivateKey: try gen.inboxKey.rawRepresentation,
                                                                    code: other.code)), "a code for another entry is no grant")
        let foreign = try InviteAdminRecordV1(decoding: try other.grant(groupID: [1, 2], sourceEpoch: 4).encoded)
        XCTAssertThrowsError(try InviteLinkGeneration(grant: foreign, current: current)) {
            XCTAssertEqual(($0 as? MLSError)?.code, .inviteLinkInactive)
        }
        XCTAssertThrowsError(try granted.verify(try XCTUnwrap(other.preview)), "another generation's preview fails the commitment")
    }
}
