@testable import InviteKitVectors
import XCTest
import InviteKitTestSupport
import Foundation
@testable import InviteKitMLS

/// vectors/mls/group-vectors.json (regenerate with `IK_MLS_WRITE_VECTORS=1`).
final class GroupVectorTests: XCTestCase {
    func testGeneratedVectorsAreDeterministic() throws {
        XCTAssertEqual(try GroupVectors.generate(), try GroupVectors.generate())
    }

    func testCommittedVectorsPass() throws {
        let url = VectorFiles.url("mls/group-vectors.json")
        if ProcessInfo.processInfo.environment["IK_MLS_WRITE_VECTORS"] == "1" {
            try GroupVectors.generate().write(to: url)
        }
        let data = try Data(contentsOf: url)
        XCTAssertEqual(data, try GroupVectors.generate(), "the generator drifted from the committed file")
        let r = GroupVectors.verify(json: data)
        XCTAssertEqual(r.failed, 0)
        XCTAssertEqual(r.passed, 3 + 1 + 1 + 7 + 2)
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual((root["commits"] as? [Any])?.count, 7)
    }

    func testTamperedVectorFails() throws {
        let data = try Data(contentsOf: VectorFiles.url("mls/group-vectors.json"))
        var root = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var ks = try XCTUnwrap(root["key_schedule"] as? [[String: Any]])
        var out = try XCTUnwrap(ks[0]["out"] as? [String: String])
        out["epoch_secret"] = String(repeating: "00", count: 32)
        ks[0]["out"] = out
        root["key_schedule"] = ks
        let r = GroupVectors.verify(json: try JSONSerialization.data(withJSONObject: root))
        XCTAssertEqual(r.failed, 1)
    }

    func testSuiteRunnerIncludesGroupVectors() {
        let results = MLSVectorSuites.run(directory: VectorFiles.root)
        let group = results.first { $0.suite == "mls-group" }
        XCTAssertEqual(group?.failed, 0)
        XCTAssertGreaterThan(group?.passed ?? 0, 0)
    }

    func testSimulationSmall() throws {
        let facts = try GroupSimulation.run(members: 6, removals: 2, seed: 3)
        XCTAssertEqual(facts.map(\.action), ["create", "add", "self_update", "remove", "remove", "self_remove"])
        XCTAssertTrue(facts.allSatisfy(\.converged))
        XCTAssertTrue(facts.allSatisfy { $0.removedReaders == 0 })
        XCTAssertEqual(facts.last?.members, 3)
        XCTAssertEqual(facts[1].messageReaders, 5)
    }
}
