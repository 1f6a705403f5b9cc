import XCTest
import InviteKitTestSupport
@testable import InviteKitMLS

/// mlswg `tree-operations.json`: Add/Update/Remove on a tree and tree hashes (RFC 9420 §7.7, §7.8), suites 1 and 3.
final class TreeOperationsVectorTests: XCTestCase {
    func testEveryCaseInTheProfilePasses() throws {
        let cases = try XCTUnwrap(try VectorFiles.json("external/mls/tree-operations.json") as? [[String: Any]])
        XCTAssertGreaterThan(cases.count, 0)
        let r = MLSWGTreeSuites.treeOperations(cases)
        XCTAssertGreaterThan(r.passed, 0, "no case ran")
        XCTAssertEqual(r.failed, 0, r.failures.prefix(10).joined(separator: "\n"))
        XCTAssertEqual(r.passed + r.failed + r.skipped, cases.count)
        for (reason, _) in r.skips { XCTAssert(reason.hasSuffix("is outside the Marmot profile"), reason) }
    }
}
