import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit

/// Inputs found by the libFuzzer targets (Fuzz/, issue 6), kept as regression tests.
///
/// fuzz-invite-join-error found that `InviteJoinErrorCodec` handed any `timestamp` string to
/// Foundation's ISO8601DateFormatter, whose ICU parser divides by zero (SIGFPE, the process dies)
/// on a fraction of ~40 digits, and reads years that are not four digits (0000, 5+ digits,
/// signed, year 1 with an offset) as other instants, so the decoded error did not re-encode to itself.
final class FuzzRegressionTests: XCTestCase {
    private func decode(timestamp: String) throws -> InviteJoinError {
        let json = #"{"errorType":"consent_not_allowed","inviteTag":"t","timestamp":"\#(timestamp)","reason":"used"}"#
        return try InviteJoinErrorCodec().decode(EncodedContent(type: .inviteJoinError, content: Array(json.utf8)))
    }

    /// crash-c765bfe4b5f98617668afa9dd2aa64ed0d01fa2f: SIGFPE inside ICU before the fix.
    func testLongFractionIsATypedErrorNotACrash() {
        let stamp = "2025-01-02T03:04:05." + String(repeating: "3", count: 150) + "123Z"
        XCTAssertThrowsError(try decode(timestamp: stamp)) { error in
            XCTAssertEqual((error as? ContentTypeError)?.code, .invalidJSONFormat)
        }
    }

    /// Years Foundation misreads: accepted before the fix, and re-encoded as a different instant.
    func testYearsThatDoNotRoundTripAreRejected() {
        for stamp in ["202522222-01-02T03:04:05.123Z", "0000-01-02T03:04:05Z", "-0001-01-02T03:04:05Z", "99999-01-02T03:04:05Z",
                      "0001-01-01T00:00:00+02:00"] {
            XCTAssertThrowsError(try decode(timestamp: stamp), stamp)
        }
    }

    /// Whatever the codec accepts must survive encode → decode unchanged (whole seconds).
    func testAcceptedTimestampsRoundTrip() throws {
        let codec = InviteJoinErrorCodec()
        for stamp in ["2025-01-02T03:04:05Z", "2025-01-02T03:04:05.123Z", "2025-01-02T03:04:05+02:00", "1000-01-01T00:00:00Z",
                      "9999-12-31T23:59:59Z"] {
            let e = try decode(timestamp: stamp)
            let back = try codec.decode(codec.encode(e))
            XCTAssertLessThan(abs(back.timestamp.timeIntervalSince(e.timestamp)), 1, stamp)
            XCTAssertEqual(try codec.decode(codec.encode(back)), back, stamp)
        }
    }
}

extension FuzzRegressionTests {
    /// Found by fuzz-signed-invite: an all-empty invite ("CgA") parsed but re-encoded to a slug
    /// the parser refused. A signature that is not 65 bytes is now refused when parsing.
    func testEmptyInviteIsRefusedWhenParsing() {
        XCTAssertThrowsError(try SignedInvite(link: "CgA")) { XCTAssertEqual(($0 as? InviteError)?.code, .invalidSignature) }
    }

    /// Found by fuzz-approval-url: a non-ASCII group id percent-encodes to 3× its size; every URL
    /// `url` makes for an accepted group id must parse back.
    func testLongNonASCIIApprovalURLRoundTrips() throws {
        let key = Secp256k1.PrivateKey(using: SeededRandom(seed: 5)).publicKey
        let approval = ApprovalURL(pubkey: key, groupId: String(repeating: "é", count: 700))
        XCTAssertEqual(try ApprovalURL(url: approval.url), approval)
    }
}
