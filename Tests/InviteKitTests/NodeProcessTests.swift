import XCTest
import Foundation
import InviteKitTestSupport

/// The CLI as real processes over the real nostr-relay on loopback: an inviter `serve` and two
/// joiners, each with its own home; the second uses the same single-use invite and is refused;
/// `serve` killed with `kill -9` and restarted sends nothing twice; SIGTERM stops it cleanly.
final class NodeProcessTests: XCTestCase {
    private var relay: RelayProcess!
    private var cli: CLIProcesses!
    private var root: String!

    override func setUpWithError() throws {
        try RelayProcess.requireRelay()
        cli = try CLIProcesses()
        relay = try RelayProcess()
        try relay.start()
        root = (NSTemporaryDirectory() as NSString).appendingPathComponent("invitekit-cli-\(UUID().uuidString)")
    }

    override func tearDown() {
        cli?.killAll()
        relay?.tearDown()
        if let root { try? FileManager.default.removeItem(atPath: root) }
    }

    private func home(_ name: String) -> String { (root as NSString).appendingPathComponent(name) }

    private func waitFor(_ out: ProcessOutput, _ needle: String, timeout: TimeInterval = 30) -> Bool {
        CLIProcesses.waitFor(timeout) { out.text.contains(needle) }
    }

    func testServeAndTwoJoinersSingleUseRestartAndSignals() throws {
        for name in ["ada", "dee", "eve"] {
            XCTAssertEqual(try cli.run(["init", "--home", home(name), "--relay", relay.url]).status, 0)
        }
        let (serve, serveOut) = try cli.start(["serve", "--home", home("ada"), "--new-group", "club", "--single-use", "--interval", "0.3"])
        XCTAssertTrue(waitFor(serveOut, "invite: "), serveOut.text)
        let url = try XCTUnwrap(serveOut.text.components(separatedBy: "invite: ").last?.components(separatedBy: "\n").first)

        let second = try cli.run(["serve", "--home", home("ada"), "--duration", "1"])
        XCTAssertNotEqual(second.status, 0)
        XCTAssertTrue(second.output.contains("store_locked"), second.output)

        let dee = try cli.run(["join", "--home", home("dee"), url, "--timeout", "30"])
        XCTAssertEqual(dee.status, 0, dee.output)
        XCTAssertTrue(dee.output.contains("joined group"), dee.output)
        let eve = try cli.run(["join", "--home", home("eve"), url, "--timeout", "30"])
        XCTAssertEqual(eve.status, 3, eve.output)
        XCTAssertTrue(eve.output.contains("This invite was already used"), eve.output)

        // kill -9, then restart: the stored requests are caught up again but nothing is decided or sent twice.
        kill(serve.processIdentifier, SIGKILL)
        XCTAssertTrue(RelayProcess.waitForExit(serve, timeout: 10))
        let restarted = try cli.run(["serve", "--home", home("ada"), "--duration", "3", "--interval", "0.3"])
        XCTAssertEqual(restarted.status, 0, restarted.output)
        XCTAssertFalse(restarted.output.contains("join request"), restarted.output)
        XCTAssertFalse(restarted.output.contains("published"), restarted.output)

        let (again, againOut) = try cli.start(["serve", "--home", home("ada")])
        XCTAssertTrue(waitFor(againOut, "serving on"))
        kill(again.processIdentifier, SIGTERM)
        XCTAssertTrue(RelayProcess.waitForExit(again, timeout: 15))
        XCTAssertEqual(again.terminationStatus, 0)
        XCTAssertTrue(waitFor(againOut, "stopped", timeout: 2), againOut.text)
    }
}
