import XCTest
import InviteKitTestSupport
@testable import InviteKit

/// The one joiner model, without sockets or a database: every state against every event.
final class JoinStateMachineTests: XCTestCase {
    typealias Event = JoinStateMachine.Event
    typealias Refusal = JoinStateMachine.Refusal

    let group = JoinedGroup(groupID: String(repeating: "cd", count: 32), nostrGroupID: String(repeating: "ab", count: 32), epoch: 1)
    let expired = InviteKitError(.inviteExpired, underlyingCode: "invite_expired")
    let undecryptable = InviteKitError(.welcomeFailed, underlyingCode: "decryption_failed")

    var states: [(String, JoinState)] {
        [("idle", .idle), ("validating", .validating), ("joining", .joining(tag: "T1")), ("joined", .joined(group)),
         ("joinFailed", .joinFailed(tag: "T1", error: expired)), ("cancelled", .cancelled)]
    }

    var events: [(String, Event)] {
        [("validate", .validate), ("requested", .requested(tag: "T1")), ("invalid", .invalid(expired)),
         ("rejected", .rejected(tag: "T1", errorType: .singleUseConsumed)), ("rejectedOther", .rejected(tag: "OTHER", errorType: .conversationExpired)),
         ("welcomeMatched", .welcomeMatched(group)), ("welcomeFailed", .welcomeFailed(undecryptable)), ("cancel", .cancel)]
    }

    /// Every legal move; any pair not listed must be refused.
    var legal: [String: JoinState] {
        [
            "idle/validate": .validating,
            "idle/requested": .joining(tag: "T1"),
            "idle/invalid": .joinFailed(tag: "", error: expired),
            "idle/cancel": .cancelled,
            "validating/requested": .joining(tag: "T1"),
            "validating/invalid": .joinFailed(tag: "", error: expired),
            "validating/cancel": .cancelled,
            "joining/rejected": .joinFailed(tag: "T1", error: InviteKitError(.inviteAlreadyUsed, underlyingCode: "single_use_consumed")),
            "joining/welcomeMatched": .joined(group),
            "joining/welcomeFailed": .joinFailed(tag: "T1", error: undecryptable),
            "joining/cancel": .cancelled,
        ]
    }

    func refusal(from state: String, on event: String) -> Refusal {
        switch state {
        case "cancelled": return .afterCancel
        case "joined", "joinFailed": return .alreadyFinished
        case "joining" where event == "rejectedOther": return .otherTag
        default: return .notExpected
        }
    }

    func testEveryStateAgainstEveryEvent() {
        var moves = 0, refusals = 0
        for (stateName, state) in states {
            for (eventName, event) in events {
                let key = "\(stateName)/\(eventName)"
                if let expected = legal[key] {
                    XCTAssertEqual(try JoinStateMachine.next(after: state, on: event), expected, key)
                    moves += 1
                } else {
                    XCTAssertThrowsError(try JoinStateMachine.next(after: state, on: event), key) { error in
                        let error = error as? InviteKitError
                        XCTAssertEqual(error?.code, .messageRejected, key)
                        XCTAssertEqual(error.flatMap(Refusal.init), refusal(from: stateName, on: eventName), key)
                    }
                    refusals += 1
                }
            }
        }
        XCTAssertEqual(moves, legal.count, "a legal move names a state or event not in the lists")
        XCTAssertEqual(moves + refusals, states.count * events.count)
    }

    func testARefusedEventKeepsTheState() {
        var m = JoinStateMachine()
        XCTAssertNoThrow(try m.apply(.validate))
        XCTAssertNoThrow(try m.apply(.requested(tag: "T1")))
        XCTAssertThrowsError(try m.apply(.rejected(tag: "OTHER", errorType: .conversationExpired)))
        XCTAssertEqual(m.state, .joining(tag: "T1"))
        XCTAssertEqual(try m.apply(.welcomeMatched(group)), .joined(group))
        XCTAssertThrowsError(try m.apply(.rejected(tag: "T1", errorType: .conversationExpired)))
        XCTAssertEqual(m.state, .joined(group))
    }

    /// A Welcome's failure is kept as `welcome_failed` with its cause's code, as a node reads it back.
    func testAFailedWelcomeEndsTheJoinAsWelcomeFailed() throws {
        let cause = InviteKitError(.joinFailed, underlyingCode: "welcome_for_another_group")
        XCTAssertEqual(try JoinStateMachine.next(after: .joining(tag: ""), on: .welcomeFailed(cause)),
                       .joinFailed(tag: "", error: InviteKitError(.welcomeFailed, underlyingCode: "welcome_for_another_group")))
        XCTAssertEqual(try JoinStateMachine.next(after: .joining(tag: ""), on: .welcomeFailed(InviteKitError(.welcomeFailed))),
                       .joinFailed(tag: "", error: InviteKitError(.welcomeFailed, underlyingCode: "welcome_failed")))
    }

    func testTheInvitersRefusalIsMappedIntoTheTaxonomy() throws {
        guard case .joinFailed(let tag, let error) = try JoinStateMachine.next(after: .joining(tag: "T1"),
                                                                              on: .rejected(tag: "T1", errorType: .singleUseConsumed)) else {
            return XCTFail()
        }
        XCTAssertEqual(tag, "T1"); XCTAssertEqual(error.code, .inviteAlreadyUsed)
        XCTAssertEqual(error.message, "This invite was already used")
    }

    /// A node's stored join resumes only while waiting; a finished one is refused as its state refuses every event.
    func testAStoredJoinResumesOnlyWhileRequested() throws {
        func record(_ state: PendingJoinRecord.State, tag: String?) -> PendingJoinRecord {
            PendingJoinRecord(id: "j", inviteURL: "u", inviteTag: tag, inviter: [1], relays: [], keyPackageRef: nil, keyPackageEventID: nil,
                              requestEventID: nil, state: state, createdAt: 1, updatedAt: 1)
        }
        XCTAssertEqual(try JoinStateMachine(resuming: record(.requested, tag: "T1")).state, .joining(tag: "T1"))
        XCTAssertEqual(try JoinStateMachine(resuming: record(.requested, tag: nil)).state, .joining(tag: ""), "a Whistle join has no tag")
        let ended: [(PendingJoinRecord.State, Refusal)] = [(.joined, .alreadyFinished), (.failed, .alreadyFinished), (.cancelled, .afterCancel)]
        for (state, expected) in ended {
            XCTAssertThrowsError(try JoinStateMachine(resuming: record(state, tag: "T1"))) {
                XCTAssertEqual(($0 as? InviteKitError).flatMap(Refusal.init), expected, "\(state)")
            }
        }
    }
}
