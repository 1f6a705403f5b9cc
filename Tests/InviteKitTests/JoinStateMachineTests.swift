import XCTest
import InviteKitTestSupport
@testable import InviteKit

final class JoinStateMachineTests: XCTestCase {
    let group = JoinedGroup(nostrGroupID: String(repeating: "ab", count: 32), epoch: 1)

    func testHappyPath() {
        var m = JoinStateMachine()
        XCTAssertTrue(m.apply(.startValidating)); XCTAssertEqual(m.state, .validating)
        XCTAssertTrue(m.apply(.requestSent(tag: "T1"))); XCTAssertEqual(m.state, .joining(tag: "T1"))
        XCTAssertTrue(m.apply(.welcomeProcessed(group))); XCTAssertEqual(m.state, .joined(group))
        XCTAssertFalse(m.apply(.joinErrorReceived(tag: "T1", errorType: .conversationExpired)))
        XCTAssertEqual(m.state, .joined(group))
    }

    func testErrorWithTheSameTagFailsTheJoin() {
        var m = JoinStateMachine()
        m.apply(.startValidating); m.apply(.requestSent(tag: "T1"))
        XCTAssertTrue(m.apply(.joinErrorReceived(tag: "T1", errorType: .singleUseConsumed)))
        guard case .joinFailed(let tag, let error) = m.state else { return XCTFail() }
        XCTAssertEqual(tag, "T1"); XCTAssertEqual(error.code, .inviteAlreadyUsed)
        XCTAssertEqual(error.message, "This invite was already used")
    }

    func testErrorForAnotherTagIsIgnored() {
        var m = JoinStateMachine()
        m.apply(.startValidating); m.apply(.requestSent(tag: "T1"))
        XCTAssertFalse(m.apply(.joinErrorReceived(tag: "OTHER", errorType: .conversationExpired)))
        XCTAssertEqual(m.state, .joining(tag: "T1"))
        XCTAssertEqual(m.ignored, [.otherTag])
    }

    func testErrorAfterCancelIsIgnored() {
        var m = JoinStateMachine()
        m.apply(.startValidating); m.apply(.requestSent(tag: "T1")); m.apply(.cancel)
        XCTAssertFalse(m.apply(.joinErrorReceived(tag: "T1", errorType: .conversationExpired)))
        XCTAssertFalse(m.apply(.welcomeProcessed(group)))
        XCTAssertEqual(m.state, .cancelled)
        XCTAssertEqual(m.ignored, [.afterCancel, .afterCancel])
    }

    func testLocalValidationFailure() {
        var m = JoinStateMachine()
        m.apply(.startValidating)
        m.apply(.validationFailed(tag: "T9", error: InviteKitError(.inviteExpired)))
        XCTAssertEqual(m.state, .joinFailed(tag: "T9", error: InviteKitError(.inviteExpired)))
    }

    func testWelcomeBeforeRequestIsNotExpected() {
        var m = JoinStateMachine()
        XCTAssertFalse(m.apply(.welcomeProcessed(group)))
        XCTAssertEqual(m.state, .idle)
    }
}
