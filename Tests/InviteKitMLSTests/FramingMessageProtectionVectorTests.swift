import XCTest
import InviteKitTestSupport
import InviteKitCrypto
@testable import InviteKitMLS

/// RFC 9420 §6 PublicMessage and PrivateMessage protection against the mlswg vectors in `external/mls/message-protection.json`, cipher suites 1 and 3; other
/// suites are skipped as outside the Marmot profile.
final class FramingMessageProtectionVectorTests: XCTestCase {
    func testSuites1And3Pass() throws {
        let list = try XCTUnwrap(try VectorFiles.json("external/mls/message-protection.json") as? [[String: Any]])
        let r = MLSWGScheduleSuites.run(suite: "mlswg-message-protection", entries: list)
        XCTAssertGreaterThan(r.passed, 0, "no cases loaded")
        XCTAssertEqual(r.failed, 0, r.failures.joined(separator: "\n"))
        XCTAssertEqual(r.passed + r.skipped.count, list.count)
        XCTAssertTrue(r.skipped.allSatisfy { $0.hasSuffix("is outside the Marmot profile") })
        XCTAssertEqual(r.passed, 2)
    }
}
