import XCTest
import InviteKitTestSupport
import InviteKitInvites
import InviteKitVectors

final class InviteVectorTests: XCTestCase {
    func testAllInviteVectorSuitesPass() {
        let results = InviteVectorSuites.run(directory: VectorFiles.root.path)
        XCTAssertEqual(results.count, 5)
        for r in results {
            XCTAssertGreaterThan(r.passed, 0, "\(r.suite) loaded no cases")
            XCTAssertEqual(r.failed, 0, "\(r.suite): \(r.failures.joined(separator: "; "))")
        }
        // The same counts from invites/ itself.
        XCTAssertEqual(InviteVectorSuites.run(directory: VectorFiles.url("invites").path), results)
    }

    func testEveryNegativeCodeIsAKnownCode() throws {
        let text = try String(contentsOf: VectorFiles.url("invites/negative.json"), encoding: .utf8)
        let known = Set(InviteError.Code.allCases.map(\.rawValue) + ProtobufError.Code.allCases.map(\.rawValue))
        let codes = text.components(separatedBy: "\"error\":\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        XCTAssertGreaterThan(codes.count, 40)
        for c in codes { XCTAssertTrue(known.contains(c), c) }
    }
}
