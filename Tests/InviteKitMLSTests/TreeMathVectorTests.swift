@testable import InviteKitVectors
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

    /// The runner `invitekit vectors verify` uses reports the four tree suites, none failing, and
    /// names why each skipped case was skipped.
    func testRunnerReportsEveryTreeSuite() {
        let results = MLSVectorSuites.results(directory: VectorFiles.root.path)
        let tree = results.filter { $0.suite.hasPrefix("mlswg-tree") }
        XCTAssertEqual(Set(tree.map(\.suite)), ["mlswg-tree-math", "mlswg-tree-operations", "mlswg-tree-validation", "mlswg-treekem"])
        for r in tree {
            XCTAssertGreaterThan(r.passed, 0, r.suite)
            XCTAssertEqual(r.failed, 0, r.suite)
        }
        let kem = tree.first { $0.suite == "mlswg-treekem" }
        XCTAssertEqual(kem?.skips["cipher suite 2 is outside the Marmot profile"], 11)
    }
}
