import XCTest
import Foundation
import InviteKitVectors
import InviteKitTestSupport

/// The registry holds every suite to its declaration: a suite passes only when it earned it.
final class VectorSuiteRegistryTests: XCTestCase {
    func testEverySuiteFamilyDeclaresItsSuitesOnce() {
        let names = VectorSuiteRegistry.declarations.map(\.suite)
        XCTAssertGreaterThan(names.count, 20)
        XCTAssertEqual(Set(names).count, names.count, "a suite declared twice")
        XCTAssertTrue(VectorSuiteRegistry.declarations.allSatisfy { !$0.files.isEmpty && $0.minimumCases > 0 })
    }

    func testTooFewCasesAMissingFileAMissingRunAndAnUndeclaredSuiteEachFail() throws {
        let tmp = TemporaryDirectory(prefix: "invitekit-registry")
        defer { withExtendedLifetime(tmp) {} }
        let dir = tmp.path
        try Data("[1]".utf8).write(to: URL(fileURLWithPath: dir + "/a.json"))
        let declarations = [
            VectorSuiteDeclaration(suite: "enough", files: ["a.json"], minimumCases: 2),
            VectorSuiteDeclaration(suite: "short", files: ["a.json"], minimumCases: 3),
            VectorSuiteDeclaration(suite: "no-file", files: ["missing.json"], minimumCases: 1),
            VectorSuiteDeclaration(suite: "never-ran", files: ["a.json"], minimumCases: 1),
        ]
        let ran = [VectorSuiteResult(suite: "enough", passed: 2, failed: 0), VectorSuiteResult(suite: "short", passed: 2, failed: 0),
                   VectorSuiteResult(suite: "no-file", passed: 1, failed: 0), VectorSuiteResult(suite: "stray", passed: 5, failed: 0)]
        let held = VectorSuiteRegistry.enforce(ran, directory: dir, declarations: declarations)
        XCTAssertEqual(held.map(\.suite), ["enough", "short", "no-file", "never-ran", "stray"])
        XCTAssertEqual(held.map(\.failed), [0, 1, 1, 1, 1])
        XCTAssertTrue(held[1].failures.first?.contains("at least 3") ?? false, "\(held[1].failures)")
        XCTAssertTrue(held[2].failures.first?.contains("missing") ?? false, "\(held[2].failures)")
        XCTAssertTrue(held[3].failures.first?.contains("did not run") ?? false, "\(held[3].failures)")
        XCTAssertTrue(held[4].failures.first?.contains("not declared") ?? false, "\(held[4].failures)")
    }
}
