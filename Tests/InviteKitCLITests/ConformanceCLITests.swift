import Foundation
import XCTest
import InviteKitTestSupport

/// `invitekit conformance run` (PROTOCOL §5.13.1): MDK's scenarios pass, and a scenario this
/// runner cannot fully check fails by name, never silently.
final class ConformanceCLITests: XCTestCase {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func scenario(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: root.appendingPathComponent("vectors/marmot/conformance/\(name)"))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func write(_ o: [String: Any], in dir: TemporaryDirectory, as name: String) throws -> String {
        let url = dir.fileURL(name)
        try JSONSerialization.data(withJSONObject: o).write(to: url)
        return url.path
    }

    func testScenariosAndSelectorCasesPass() throws {
        let files = ["convergence-witness-selected.v1.json", "incidents/fork-recovery-incident.v1.json", "policy_cases.json"]
            .map { root.appendingPathComponent("vectors/marmot/conformance/\($0)").path }
        let r = try CLI.run(["conformance", "run"] + files)
        XCTAssertEqual(r.status, 0, r.out)
        XCTAssertTrue(r.out.hasSuffix("9 passed, 0 failed\n"), r.out)
    }

    /// Each client is a node on its own home: a restart between an own Commit and its
    /// acknowledgement finds the Commit in the store (it is then published, applied and its
    /// Welcome sent), and the homes are gone after the run.
    func testClientsAreNodesWhoseHomesOutliveARestartAndNotTheRun() throws {
        let dir = TemporaryDirectory(prefix: "ik-conf")
        let tmp = dir.fileURL("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        var o = try scenario("invite-member.v1.json")
        var s = try XCTUnwrap(o["scenario"] as? [String: Any])
        var steps = try XCTUnwrap(s["steps"] as? [[String: Any]])
        XCTAssertEqual(steps[5]["type"] as? String, "invite_members")
        steps.insert(contentsOf: [["type": "restart_client", "client": "alice"], ["type": "restart_client", "client": "bob"]], at: 6)
        s["steps"] = steps
        o["scenario"] = s
        var outcomes = try XCTUnwrap(o["expected_outcomes"] as? [[String: Any]])
        for i in outcomes.indices where outcomes[i]["step_index"] as? Int == 6 { outcomes[i]["step_index"] = 8 }
        o["expected_outcomes"] = outcomes
        let r = try CLI.run(["conformance", "run", try write(o, in: dir, as: "restart.json")], env: ["TMPDIR": tmp.path])
        XCTAssertEqual(r.status, 0, r.out)
        XCTAssertTrue(r.out.hasSuffix("1 passed, 0 failed\n"), r.out)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), [], "the clients' homes are deleted")
    }

    func testAnUnknownStepOrOutcomeFailsByName() throws {
        let dir = TemporaryDirectory(prefix: "ik-conf")
        var withStep = try scenario("convergence-committer-selected.v1.json")
        var s = try XCTUnwrap(withStep["scenario"] as? [String: Any])
        s["steps"] = (s["steps"] as? [Any] ?? []) + [["type": "teleport_client", "client": "alice"]]
        withStep["scenario"] = s
        var withOutcome = try scenario("convergence-committer-selected.v1.json")
        withOutcome["expected_outcomes"] = (withOutcome["expected_outcomes"] as? [Any] ?? []) + [["type": "group_mood", "client": "carol"]]
        var expectsNothing = try scenario("convergence-committer-selected.v1.json")
        expectsNothing["expected_outcomes"] = []
        let files = [try write(withStep, in: dir, as: "a.json"), try write(withOutcome, in: dir, as: "b.json"),
                     try write(expectsNothing, in: dir, as: "c.json")]
        let r = try CLI.run(["conformance", "run"] + files)
        XCTAssertEqual(r.status, 1, r.out)
        XCTAssertTrue(r.out.contains("unknown_step: step type \"teleport_client\""), r.out)
        XCTAssertTrue(r.out.contains("unknown_outcome: outcome type \"group_mood\""), r.out)
        XCTAssertTrue(r.out.contains("no outcome was checked"), r.out)
        XCTAssertTrue(r.out.hasSuffix("0 passed, 3 failed\n"), r.out)
    }

    /// A wrong expectation is caught: the scenario's outcome names the client and what differed.
    func testAWrongExpectationFails() throws {
        let dir = TemporaryDirectory(prefix: "ik-conf")
        var o = try scenario("convergence-committer-selected.v1.json")
        var outcomes = try XCTUnwrap(o["expected_outcomes"] as? [[String: Any]])
        for i in outcomes.indices where outcomes[i]["type"] as? String == "client_state" { outcomes[i]["epoch"] = 3 }
        o["expected_outcomes"] = outcomes
        let r = try CLI.run(["conformance", "run", try write(o, in: dir, as: "wrong.json")])
        XCTAssertEqual(r.status, 1, r.out)
        XCTAssertTrue(r.out.contains("client_state (client=carol): epoch was 2"), r.out)
    }

    func testAnUnreadableFileIsAnError() throws {
        let r = try CLI.run(["conformance", "run", "/nonexistent/scenario.json"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.err.contains("cannot read"), r.err)
    }
}
