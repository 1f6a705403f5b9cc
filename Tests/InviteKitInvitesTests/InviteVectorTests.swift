import XCTest
import InviteKitTestSupport
@testable import InviteKitInvites

final class InviteVectorTests: XCTestCase {
    func testAllInviteVectorSuitesPass() {
        let results = InviteVectorSuites.results(directory: VectorFiles.root.path)
        XCTAssertEqual(results.count, 5)
        for r in results {
            XCTAssertGreaterThan(r.passed, 0, "\(r.suite) loaded no cases")
            XCTAssertEqual(r.failed, 0, "\(r.suite): \(r.failures.joined(separator: "; "))")
        }
        // The public tuple form gives the same counts, from the vectors root or invites/ itself.
        let viaURL = InviteVectorSuites.run(directory: VectorFiles.url("invites"))
        XCTAssertEqual(viaURL.map(\.passed), results.map(\.passed))
        XCTAssertTrue(viaURL.allSatisfy { $0.failed == 0 })
    }

    func testEveryNegativeCodeIsAKnownCode() throws {
        let text = try String(contentsOf: VectorFiles.url("invites/negative.json"), encoding: .utf8)
        let known = Set(InviteError.Code.allCases.map(\.rawValue) + ProtobufError.Code.allCases.map(\.rawValue))
        let codes = text.components(separatedBy: "\"error\":\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        XCTAssertGreaterThan(codes.count, 40)
        for c in codes { XCTAssertTrue(known.contains(c), c) }
    }
}
