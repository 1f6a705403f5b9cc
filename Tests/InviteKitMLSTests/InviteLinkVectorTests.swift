import InviteKitTestSupport
import InviteKitVectors
import XCTest

/// The `marmot-invite-links` vector suite passes every case of the spec's fixture, and fails
/// when the fixture is absent (PROTOCOL §5.14).
final class InviteLinkVectorTests: XCTestCase {
    func testSuitePassesEveryCase() throws {
        let results = MarmotInviteLinkVectorSuites.run(directory: VectorFiles.root.path)
        XCTAssertEqual(results.count, 1)
        let r = try XCTUnwrap(results.first)
        XCTAssertEqual(r.failed, 0, r.failures.joined(separator: "\n"))
        XCTAssertEqual(r.passed, MarmotInviteLinkVectorSuites.cases.count)
        XCTAssertGreaterThanOrEqual(r.passed, 13)
    }

    func testSuiteFailsWithoutFixture() {
        let results = MarmotInviteLinkVectorSuites.run(directory: "/nonexistent")
        XCTAssertEqual(results.first?.passed, 0)
        XCTAssertEqual(results.first?.failed, 1)
    }
}
