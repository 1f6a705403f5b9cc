import XCTest
import InviteKitTestSupport
@testable import InviteKitMLS

/// mlswg `treekem.json`: UpdatePath processing and creation (RFC 9420 §7.4–§7.6), suites 1 and 3.
final class TreeKEMVectorTests: XCTestCase {
    func testEveryCaseInTheProfilePasses() throws {
        let cases = try XCTUnwrap(try VectorFiles.json("external/mls/treekem.json") as? [[String: Any]])
        XCTAssertGreaterThan(cases.count, 0)
        let r = MLSWGTreeSuites.treeKEM(cases)
        XCTAssertGreaterThan(r.passed, 0, "no case ran")
        XCTAssertEqual(r.failed, 0, r.failures.prefix(10).joined(separator: "\n"))
        XCTAssertEqual(r.passed + r.failed + r.skipped, cases.count)
        for (reason, _) in r.skips { XCTAssert(reason.hasSuffix("is outside the Marmot profile"), reason) }
    }
}
