import XCTest
import InviteKitTestSupport
@testable import InviteKitMLS

/// mlswg `tree-validation.json`: resolutions, tree hashes, parent hashes and leaf signatures (RFC 9420 §4.1.1, §7.8, §7.9.2), suites 1 and 3.
final class TreeValidationVectorTests: XCTestCase {
    func testEveryCaseInTheProfilePasses() throws {
        let cases = try XCTUnwrap(try VectorFiles.json("external/mls/tree-validation.json") as? [[String: Any]])
        XCTAssertGreaterThan(cases.count, 0)
        let r = MLSWGTreeSuites.treeValidation(cases)
        XCTAssertGreaterThan(r.passed, 0, "no case ran")
        XCTAssertEqual(r.failed, 0, r.failures.prefix(10).joined(separator: "\n"))
        XCTAssertEqual(r.passed + r.failed + r.skipped, cases.count)
        for (reason, _) in r.skips { XCTAssert(reason.hasSuffix("is outside the Marmot profile"), reason) }
    }
}
