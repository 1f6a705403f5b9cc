import XCTest
import InviteKitTestSupport
import InviteKitVectors

/// vectors/content and vectors/sealed, through the same runner `invitekit vectors verify` uses.
final class ContentVectorTests: XCTestCase {
    func testContentAndSealedVectors() {
        let results = ContentVectorSuites.run(directory: VectorFiles.root.path)
        XCTAssertEqual(results.map(\.suite), ["content-types", "sealed-kinds"])
        for r in results {
            XCTAssertGreaterThan(r.passed, 5, r.suite)
            XCTAssertEqual(r.failed, 0, "\(r.suite): \(r.failures)")
        }
    }
}
