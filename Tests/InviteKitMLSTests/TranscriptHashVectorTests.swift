import XCTest
import InviteKitTestSupport
import InviteKitCrypto
@testable import InviteKitMLS

/// RFC 9420 §8.2 transcript hashes and confirmation tag against the mlswg vectors in `external/mls/transcript-hashes.json`, cipher suites 1 and 3; other
/// suites are skipped as outside the Marmot profile.
final class TranscriptHashVectorTests: XCTestCase {
    func testSuites1And3Pass() throws {
        let list = try XCTUnwrap(try VectorFiles.json("external/mls/transcript-hashes.json") as? [[String: Any]])
        let r = MLSWGScheduleSuites.run(suite: "mlswg-transcript-hashes", entries: list)
        XCTAssertGreaterThan(r.passed, 0, "no cases loaded")
        XCTAssertEqual(r.failed, 0, r.failures.joined(separator: "\n"))
        XCTAssertEqual(r.passed + r.skipped.count, list.count)
        XCTAssertTrue(r.skipped.allSatisfy { $0.hasSuffix("is outside the Marmot profile") })
        XCTAssertEqual(r.passed, 2)
    }
}
