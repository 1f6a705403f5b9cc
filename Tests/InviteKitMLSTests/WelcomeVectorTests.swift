import XCTest
import InviteKitTestSupport
@testable import InviteKitMLS

/// RFC 9420 §12.4.3.1 against the mlswg welcome.json, suites 1 and 3.
final class WelcomeVectorTests: XCTestCase {
    func testSuites1And3Verify() throws {
        let list = try XCTUnwrap(try VectorFiles.json("external/mls/welcome.json") as? [[String: Any]])
        XCTAssertGreaterThan(list.count, 0)
        let r = MLSWGEngineSuites.welcome(list)
        XCTAssertEqual(r.failed, 0, r.failures.joined(separator: "\n"))
        XCTAssertEqual(r.passed, 2)
        XCTAssertEqual(r.skipped, list.count - 2)
    }
}
