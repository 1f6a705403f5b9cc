import XCTest
import InviteKitTestSupport
import InviteKitCrypto
@testable import InviteKitMLS

/// RFC 9420 §8 key schedule, exporter and external_pub against the mlswg vectors in `external/mls/key-schedule.json`, cipher suites 1 and 3; other
/// suites are skipped as outside the Marmot profile.
final class KeyScheduleVectorTests: XCTestCase {
    func testSuites1And3Pass() throws {
        let list = try XCTUnwrap(try VectorFiles.json("external/mls/key-schedule.json") as? [[String: Any]])
        let r = MLSWGScheduleSuites.run(suite: "mlswg-key-schedule", entries: list)
        XCTAssertGreaterThan(r.passed, 0, "no cases loaded")
        XCTAssertEqual(r.failed, 0, r.failures.joined(separator: "\n"))
        XCTAssertEqual(r.passed + r.skipped.count, list.filter { [1, 3].contains(($0["cipher_suite"] as! NSNumber).intValue) }.map { ($0["epochs"] as! [Any]).count }.reduce(0, +) + list.filter { ![1, 3].contains(($0["cipher_suite"] as! NSNumber).intValue) }.count)
        XCTAssertTrue(r.skipped.allSatisfy { $0.hasSuffix("is outside the Marmot profile") })

    }
}
