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
        XCTAssertEqual(InviteKitError.Code.allCases.count, 20)
    }

    func testRetryableClassificationTable() {
        let retryable: Set<InviteKitError.Code> = [.relayUnavailable, .storageUnavailable, .outOfSync, .joinFailed]
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
        errors += GroupError.Code.allCases.map { GroupError($0, "d") }
        errors += RelayError.Code.allCases.map { RelayError($0, "d") }
        XCTAssertGreaterThan(errors.count, 80)
        for e in errors {
            let mapped = InviteKitError.from(e)
            XCTAssertNotEqual(mapped.code, .unknown, "\(e)")
            XCTAssertNotNil(mapped.underlyingCode)
        }
        struct Stranger: Error {}
        XCTAssertEqual(InviteKitError.from(Stranger()).code, .unknown)
    }

    /// Forged, malformed and wrong-creator invites must read alike (no oracle for attackers).
    func testInviteFailuresDoNotLeakWhichCheckFailed() {
        let opaque: [InviteError.Code] = [.invalidSignature, .creatorMismatch, .malformedProtobuf, .invalidPayload, .sizeMismatch]
        let messages = Set(opaque.map { InviteKitError.from(InviteError($0)).message })
        XCTAssertEqual(messages.count, 1)
    }

    func testJoinErrorTypesForValidationFailures() {
        XCTAssertEqual(InviteKitError.joinErrorType(for: .inviteAlreadyUsed), .singleUseConsumed)
        XCTAssertEqual(InviteKitError.joinErrorType(for: .inviteRevoked), .conversationExpired)
        XCTAssertEqual(InviteKitError.joinErrorType(for: .conversationNotFound), .conversationNotFound)
        for silent: InviteError.Code in [.inviteExpired, .invalidSignature, .creatorMismatch] {
            XCTAssertNil(InviteKitError.joinErrorType(for: silent), "\(silent) must get no reply")
        }
    }
}
