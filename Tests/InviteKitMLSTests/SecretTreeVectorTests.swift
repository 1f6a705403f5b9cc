import XCTest
import InviteKitTestSupport
import InviteKitCrypto
@testable import InviteKitMLS

/// RFC 9420 §9 secret tree and §6.3.2 sender-data keys against the mlswg vectors in `external/mls/secret-tree.json`, cipher suites 1 and 3; other
/// suites are skipped as outside the Marmot profile.
final class SecretTreeVectorTests: XCTestCase {
    func testSuites1And3Pass() throws {
        let list = try XCTUnwrap(try VectorFiles.json("external/mls/secret-tree.json") as? [[String: Any]])
        let r = MLSWGScheduleSuites.run(suite: "mlswg-secret-tree", entries: list)
        XCTAssertGreaterThan(r.passed, 0, "no cases loaded")
        XCTAssertEqual(r.failed, 0, r.failures.joined(separator: "\n"))
        XCTAssertEqual(r.passed + r.skipped.count, list.count)
        XCTAssertTrue(r.skipped.allSatisfy { $0.hasSuffix("is outside the Marmot profile") })
        XCTAssertEqual(r.passed, 6)
    }
}
