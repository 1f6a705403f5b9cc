import XCTest
import InviteKitCrypto
@testable import InviteKitStore

/// `invite_link_joins` (docs/storage.md §6): rows round-trip with their opaque attempt, a second
/// row for one request is refused, a save replaces, and the listing is oldest first.
final class InviteLinkJoinsTableTests: XCTestCase {
    private func record(_ id: String, createdAt: Int64) -> InviteLinkJoinRecord {
        InviteLinkJoinRecord(requestID: id, linkID: "11", codeRelays: ["wss://a.example", "wss://b.example"], attempt: SecureBytes(copying: [1, 2, 3]),
                             state: "requested", validUntil: 99, lastRequestEventID: "e-" + id, createdAt: createdAt, updatedAt: createdAt)
    }

    func testRowsRoundTripAndOneRequestHasOneRow() throws {
        let store = try Store.inMemory()
        try store.write { tx in
            try tx.inviteLinkJoins.insert(record("bb", createdAt: 5))
            try tx.inviteLinkJoins.insert(record("aa", createdAt: 7))
        }
        XCTAssertThrowsError(try store.write { tx in try tx.inviteLinkJoins.insert(record("bb", createdAt: 9)) }) {
            XCTAssertEqual(($0 as? StoreError)?.code, .invalidRecord)
        }
        var row = try XCTUnwrap(try store.read { tx in try tx.inviteLinkJoins.get(requestID: "bb") })
        XCTAssertEqual(row.codeRelays, ["wss://a.example", "wss://b.example"])
        XCTAssertEqual(row.attempt.exportBytes(), [1, 2, 3])
        XCTAssertNil(row.groupID)
        row.attempt = SecureBytes(copying: [4])
        row.state = "joined"
        row.groupID = "g1"
        row.failure = "invite_preview_mismatch"
        try store.write { tx in try tx.inviteLinkJoins.save(row) }
        let saved = try XCTUnwrap(try store.read { tx in try tx.inviteLinkJoins.get(requestID: "bb") })
        XCTAssertEqual(saved.attempt.exportBytes(), [4])
        XCTAssertEqual(saved.state, "joined")
        XCTAssertEqual(saved.groupID, "g1")
        XCTAssertEqual(saved.failure, "invite_preview_mismatch")
        XCTAssertEqual(try store.read { tx in try tx.inviteLinkJoins.all() }.map(\.requestID), ["bb", "aa"], "oldest first")
    }
}
