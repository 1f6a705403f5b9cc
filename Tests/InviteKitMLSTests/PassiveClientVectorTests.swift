import XCTest
import InviteKitTestSupport
@testable import InviteKitMLS

/// A passive member follows mlswg scenarios (suites 1 and 3): join from the Welcome, apply every
/// commit, match every epoch authenticator. Cases needing a feature outside the Marmot profile
/// are skipped with the reason.
final class PassiveClientVectorTests: XCTestCase {
    func run(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let list = try XCTUnwrap(try VectorFiles.json("external/mls/\(name).json") as? [[String: Any]])
        XCTAssertGreaterThan(list.count, 0, file: file, line: line)
        let r = MLSWGEngineSuites.passiveClient(list, suite: name)
        XCTAssertEqual(r.failed, 0, r.failures.prefix(5).joined(separator: "\n"), file: file, line: line)
        XCTAssertGreaterThan(r.passed, 0, file: file, line: line)
        XCTAssertEqual(r.passed + r.failed + r.skipped, list.count, file: file, line: line)
    }

    func testWelcome() throws { try run("passive-client-welcome") }
    func testHandlingCommit() throws { try run("passive-client-handling-commit") }
    func testRandom() throws { try run("passive-client-random") }
}
