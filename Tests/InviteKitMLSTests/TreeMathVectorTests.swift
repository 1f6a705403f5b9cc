import XCTest
import InviteKitTestSupport
@testable import InviteKitMLS

/// mlswg `tree-math.json`: tree math (RFC 9420 Appendix C), suites 1 and 3.
final class TreeMathVectorTests: XCTestCase {
    func testEveryCaseInTheProfilePasses() throws {
        let cases = try XCTUnwrap(try VectorFiles.json("external/mls/tree-math.json") as? [[String: Any]])
        XCTAssertGreaterThan(cases.count, 0)
        let r = MLSWGTreeSuites.treeMath(cases)
        XCTAssertGreaterThan(r.passed, 0, "no case ran")
        XCTAssertEqual(r.failed, 0, r.failures.prefix(10).joined(separator: "\n"))
        XCTAssertEqual(r.passed + r.failed + r.skipped, cases.count)
        for (reason, _) in r.skips { XCTAssert(reason.hasSuffix("is outside the Marmot profile"), reason) }
    }
}
