import XCTest
@testable import InviteKit

/// Every layer's error is one generic type; codes are stable snake_case and unique per module.
final class CodedFailureContractTests: XCTestCase {
    private func check<C: FailureCode>(_: C.Type, file: StaticString = #filePath, line: UInt = #line) {
        let raws = C.allCases.map(\.rawValue)
        XCTAssertFalse(raws.isEmpty, file: file, line: line)
        XCTAssertEqual(Set(raws).count, raws.count, "duplicate code in \(C.self)", file: file, line: line)
        for raw in raws {
            XCTAssertTrue(raw.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" }, raw, file: file, line: line)
        }
    }

    func testEveryModuleCodeIsStableSnakeCase() {
        check(CryptoError.Code.self); check(NostrError.Code.self)
        check(InviteError.Code.self); check(MLSError.Code.self)
        check(RelayError.Code.self); check(ContentTypeError.Code.self)
    }

    func testOneShapeForEveryLayerAndOneReportingPath() {
        let errors: [any CodedError] = [CryptoError(.invalidLength, "32 bytes"), NostrError(.invalidMAC), JSONError(.jsonSyntax, "at byte 7"),
                                        ProtobufError(.truncatedVarint), MLSError(.truncated),
                                        RelayError(.timedOut, "5 s"), SealedMessageError(.malformed), InviteKitError(.inviteExpired)]
        XCTAssertEqual(errors.map(\.codeName), ["invalid_length", "nip44_invalid_mac", "json_syntax", "truncated_varint", "truncated",
                                                "relay_timed_out", "sealed_malformed", "invite_expired"])
        XCTAssertEqual(JSONError(.jsonSyntax, "at byte 7").description, "json_syntax: at byte 7")
        XCTAssertEqual(MLSError(.truncated).description, "truncated")
        XCTAssertEqual(InviteKitError(.inviteExpired).detail, "This invite has expired")
        // The folded layers are the same type, so one `catch` covers them.
        XCTAssertTrue(ProtobufError.self == InviteError.self)
        XCTAssertTrue(SealedMessageError.self == ContentTypeError.self)
    }
}
