import XCTest
import InviteKitStore
import InviteKitTestSupport
@testable import InviteKit

/// How a node keeps ``JoinStateMachine`` in `pending_joins` (docs/storage.md §6): each end state
/// is stored as its one row state, and read back as the error the machine decided.
final class JoinStateStorageTests: XCTestCase {
    let waiting = PendingJoinRecord(id: "j", inviteURL: "u", inviteTag: "T1", inviter: [1], relays: ["ws://a"], keyPackageRef: [2],
                                    keyPackageEventID: "kp", requestEventID: "w", createdAt: 1, updatedAt: 1)

    /// Stores `waiting`, advances it by `event`, and returns the state reached and the row read back.
    func advance(_ event: JoinStateMachine.Event, reason: String? = nil, at: Int64? = nil) throws -> (JoinState, PendingJoinRecord) {
        let store = try Store.inMemory()
        try store.write { tx in try tx.pendingJoins.insert(waiting) }
        let state = try store.write { tx in try tx.advance(waiting, event, reason: reason, at: at, now: 5) }
        return (state, try XCTUnwrap(try store.read { tx in try tx.pendingJoins.get(id: "j") }))
    }

    func testJoinedIsStoredWithItsGroup() throws {
        let group = JoinedGroup(groupID: "g1", nostrGroupID: "h1", epoch: 2)
        let (state, row) = try advance(.welcomeMatched(group))
        XCTAssertEqual(state, .joined(group))
        XCTAssertEqual(row.state, .joined); XCTAssertEqual(row.groupID, "g1"); XCTAssertNil(row.failure)
    }

    func testARefusalIsStoredRawAndReadBackAsTheMachinesError() throws {
        let (state, row) = try advance(.rejected(tag: "T1", errorType: .conversationExpired), reason: "gone", at: 3)
        guard case .joinFailed(_, let error) = state else { return XCTFail("\(state)") }
        XCTAssertEqual(row.state, .failed)
        XCTAssertEqual([row.errorType, row.errorTag, row.errorReason], ["conversation_expired", "T1", "gone"])
        XCTAssertEqual(row.errorAt, 3)
        XCTAssertEqual(row.failure, error)
    }

    func testAFailedWelcomeIsStoredAsWelcomeFailed() throws {
        let (state, row) = try advance(.welcomeFailed(InviteKitError(.welcomeFailed, underlyingCode: "decryption_failed")))
        guard case .joinFailed(_, let error) = state else { return XCTFail("\(state)") }
        XCTAssertEqual(row.state, .failed)
        XCTAssertEqual([row.errorType, row.errorReason], ["welcome_failed", "decryption_failed"])
        XCTAssertEqual(row.failure, error)
    }

    func testCancelledIsStored() throws {
        let (state, row) = try advance(.cancel)
        XCTAssertEqual(state, .cancelled)
        XCTAssertEqual(row.state, .cancelled)
    }

    /// A refused event changes nothing, and an ended row takes no second answer.
    func testAnEndedJoinTakesNoSecondAnswer() throws {
        let store = try Store.inMemory()
        try store.write { tx in try tx.pendingJoins.insert(waiting) }
        XCTAssertThrowsError(try store.write { tx in try tx.advance(waiting, .rejected(tag: "OTHER", errorType: .conversationExpired), now: 2) })
        XCTAssertEqual(try store.read { tx in try tx.pendingJoins.get(id: "j") }?.state, .requested)
        try store.write { tx in try tx.advance(waiting, .welcomeMatched(JoinedGroup(groupID: "g", nostrGroupID: "h", epoch: 1)), now: 3) }
        // The caller's copy still says requested; the store refuses the second end.
        XCTAssertThrowsError(try store.write { tx in try tx.advance(waiting, .welcomeFailed(InviteKitError(.welcomeFailed)), now: 4) }) {
            XCTAssertEqual(($0 as? StoreError)?.code, .invalidTransition)
        }
        let row = try XCTUnwrap(try store.read { tx in try tx.pendingJoins.get(id: "j") })
        XCTAssertEqual(row.state, .joined)
        XCTAssertThrowsError(try store.write { tx in try tx.advance(row, .cancel, now: 5) }) {
            XCTAssertEqual(($0 as? InviteKitError).flatMap(JoinStateMachine.Refusal.init), .alreadyFinished)
        }
    }
}
