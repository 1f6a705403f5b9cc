import XCTest
import InviteKitTestSupport
@testable import InviteKit

/// Contract tests over every case of the taxonomy and every layer code the factory maps.
final class InviteKitErrorContractTests: XCTestCase {
    func testEveryCaseHasAStableCodeTitleAndMessage() {
        var seen = Set<String>()
        for code in InviteKitError.Code.allCases {
            XCTAssertTrue(seen.insert(code.rawValue).inserted, "duplicate code \(code.rawValue)")
            XCTAssertTrue(code.rawValue.allSatisfy { $0.isLowercase || $0 == "_" }, code.rawValue)
            XCTAssertFalse(code.title.isEmpty); XCTAssertFalse(code.message.isEmpty)
            XCTAssertLessThan(code.message.count, 80, "messages stay short")
        }
        XCTAssertEqual(InviteKitError.Code.allCases.count, 34)
    }

    func testRetryableClassificationTable() {
        let retryable: Set<InviteKitError.Code> = [.relayUnavailable, .storageUnavailable, .outOfSync, .joinFailed, .commitPending, .storeLocked, .timedOut]
        for code in InviteKitError.Code.allCases {
            XCTAssertEqual(code.isRetryable, retryable.contains(code), code.rawValue)
        }
    }

    func testUserFacingMessagesForInvites() {
        XCTAssertEqual(InviteKitError.from(InviteError(.inviteExpired)).message, "This invite has expired")
        XCTAssertEqual(InviteKitError.from(InviteError(.inviteAlreadyUsed)).message, "This invite was already used")
    }

    /// Every layer code maps somewhere, keeps its code as `underlyingCode`, and never to `.unknown`.
    func testFactoryMapsEveryLayerCode() {
        var errors: [any Error] = []
        errors += InviteError.Code.allCases.map { InviteError($0, "d") }
        errors += NostrError.Code.allCases.map { NostrError($0, "d") }
        errors += CryptoError.Code.allCases.map { CryptoError($0, "d") }
        errors += ContentTypeError.Code.allCases.map { ContentTypeError($0, "d") }
        errors += SealedMessageError.Code.allCases.map { SealedMessageError($0, "d") }
        errors += MLSError.Code.allCases.map { MLSError($0, "d") }
        errors += RelayError.Code.allCases.map { RelayError($0, "d") }
        XCTAssertGreaterThan(errors.count, 80)
        for e in errors {
            let mapped = InviteKitError.from(e)
            XCTAssertNotEqual(mapped.code, .unknown, "\(e)")
            XCTAssertNotNil(mapped.underlyingCode)
        }
        XCTAssertEqual(InviteKitError.from(MLSError(.eventTooLarge, "d")).code, .tooLarge)
        XCTAssertEqual(InviteKitError.from(MLSError(.treeChunksMissing, "d")).code, .welcomeFailed)
        XCTAssertEqual(InviteKitError.from(MLSError(.invalidInviteCode, "d")).code, .inviteInvalid)
        struct Stranger: Error {}
        XCTAssertEqual(InviteKitError.from(Stranger()).code, .unknown)
    }

    /// Forged, malformed and wrong-creator invites must read alike (no oracle for attackers).
    func testInviteFailuresDoNotLeakWhichCheckFailed() {
        let opaque: [InviteError.Code] = [.invalidSignature, .creatorMismatch, .malformedProtobuf, .invalidPayload, .sizeMismatch, .tooManyRelays]
        let messages = Set(opaque.map { InviteKitError.from(InviteError($0)).message })
        XCTAssertEqual(messages.count, 1)
    }

    /// The one mapping from a failed invite check to the reply the joiner gets, over every code.
    /// Only failures of a genuine invite get a reply; a revoked tag reads as an expired
    /// conversation (PROTOCOL.md §8.3), never as a generic failure.
    func testJoinErrorTypeForEveryInviteCode() {
        let replies: [InviteError.Code: InviteJoinError.ErrorType] = [
            .conversationExpired: .conversationExpired, .inviteRevoked: .conversationExpired,
            .conversationNotFound: .conversationNotFound, .inviteAlreadyUsed: .singleUseConsumed,
        ]
        for code in InviteError.Code.allCases {
            XCTAssertEqual(InviteKitError.joinErrorType(for: code), replies[code], "\(code)")
        }
        XCTAssertEqual(InviteError.Code.allCases.count, 40, "a new code needs a decision here")
    }
}
