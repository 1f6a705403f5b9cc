import XCTest
import Foundation
import InviteKitTestSupport

/// `serve` killed (`kill -9` at the fail point `node.group_event.before_commit`) after the
/// engine applied a group message in memory and before its transaction committed: nothing of
/// it is stored, and the restarted serve, which the relay sends the event again, stores it
/// exactly once. Real processes over the real nostr-relay on loopback.
final class NodeGroupEventCrashTests: XCTestCase {
    private var world: CLIRelayWorld!

    override func setUpWithError() throws {
        world = try CLIRelayWorld(prefix: "invitekit-group-crash")
    }

    override func tearDown() {
        world?.tearDown()
    }

    private func waitFor(_ timeout: TimeInterval = 30, _ condition: () throws -> Bool) rethrows -> Bool {
        try CLIProcesses.waitFor(timeout, condition)
    }

    private func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    func testKillBetweenApplyAndCommitProcessesTheEventOnce() throws {
        for name in ["ada", "dee"] { XCTAssertEqual(try world.cli.run(["init", "--home", world.home(name), "--relay", world.relay.url]).status, 0) }
        let (_, adaOut) = try world.cli.start(["serve", "--home", world.home("ada"), "--new-group", "club", "--interval", "0.3"])
        XCTAssertTrue(waitFor { adaOut.text.contains("invite: ") }, adaOut.text)
        let url = try XCTUnwrap(adaOut.text.components(separatedBy: "invite: ").last?.components(separatedBy: "\n").first)
        let group = try XCTUnwrap(adaOut.text.components(separatedBy: "group ").dropFirst().first?.components(separatedBy: " ").first)
        let joined = try world.cli.run(["join", "--home", world.home("dee"), url, "--timeout", "60"])
        XCTAssertEqual(joined.status, 0, joined.output)

        // The first group event that changes dee's state kills her serve before its commit.
        var (serve, out) = try world.cli.start(["serve", "--home", world.home("dee"), "--interval", "0.3"],
                                               env: ["INVITEKIT_FAILPOINT": "node.group_event.before_commit"])
        XCTAssertTrue(waitFor { out.text.contains("serving on") }, out.text)
        let sent = try world.cli.run(["group", "send", "--home", world.home("ada"), "--group", group, "exactly once"])
        XCTAssertEqual(sent.status, 0, sent.output)
        XCTAssertTrue(RelayProcess.waitForExit(serve, timeout: 45), "serve did not reach the fail point: \(out.text)")
        XCTAssertEqual(serve.terminationReason, .uncaughtSignal)
        XCTAssertEqual(serve.terminationStatus, SIGKILL)
        let lost = try world.cli.run(["group", "read", "--home", world.home("dee"), "--group", group, "--json"])
        XCTAssertEqual(lost.status, 0, lost.output)
        XCTAssertFalse(lost.output.contains("exactly once"), "stored before the commit: \(lost.output)")

        (serve, out) = try world.cli.start(["serve", "--home", world.home("dee"), "--interval", "0.3"])
        XCTAssertTrue(try waitFor(45) { try world.cli.run(["group", "read", "--home", world.home("dee"), "--group", group]).output.contains("exactly once") },
                      out.text)
        // The restored ratchet still reads what comes next, and nothing was stored twice.
        XCTAssertEqual(try world.cli.run(["group", "send", "--home", world.home("ada"), "--group", group, "and the next"]).status, 0)
        XCTAssertTrue(try waitFor(45) { try world.cli.run(["group", "read", "--home", world.home("dee"), "--group", group]).output.contains("and the next") },
                      out.text)
        let history = try world.cli.run(["group", "read", "--home", world.home("dee"), "--group", group, "--json"]).output
        XCTAssertEqual(count("exactly once", in: history), 1, history)
        XCTAssertEqual(count("and the next", in: history), 1, history)
    }
}
