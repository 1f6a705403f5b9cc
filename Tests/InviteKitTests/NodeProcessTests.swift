import XCTest
import Foundation
import InviteKitTestSupport

/// The CLI as real processes over the real nostr-relay on loopback: an inviter `serve` and two
/// joiners, each with its own home; the second uses the same single-use invite and is refused;
/// `serve` killed with `kill -9` and restarted sends nothing twice; SIGTERM stops it cleanly.
final class NodeProcessTests: XCTestCase {
    private var world: CLIRelayWorld!

    override func setUpWithError() throws {
        world = try CLIRelayWorld(prefix: "invitekit-cli")
    }

    override func tearDown() {
        world?.tearDown()
    }

    private func waitFor(_ out: ProcessOutput, _ needle: String, timeout: TimeInterval = 30) -> Bool {
        CLIProcesses.waitFor(timeout) { out.text.contains(needle) }
    }

    func testServeAndTwoJoinersSingleUseRestartAndSignals() throws {
        for name in ["ada", "dee", "eve"] {
            XCTAssertEqual(try world.cli.run(["init", "--home", world.home(name), "--relay", world.relay.url]).status, 0)
        }
        let (serve, serveOut) = try world.cli.start(["serve", "--home", world.home("ada"), "--new-group", "club", "--single-use", "--interval", "0.3"])
        XCTAssertTrue(waitFor(serveOut, "invite: "), serveOut.text)
        let url = try XCTUnwrap(serveOut.text.components(separatedBy: "invite: ").last?.components(separatedBy: "\n").first)

        let second = try world.cli.run(["serve", "--home", world.home("ada"), "--duration", "1"])
        XCTAssertNotEqual(second.status, 0)
        XCTAssertTrue(second.output.contains("store_locked"), second.output)

        let dee = try world.cli.run(["join", "--home", world.home("dee"), url, "--timeout", "30"])
        XCTAssertEqual(dee.status, 0, dee.output)
        XCTAssertTrue(dee.output.contains("joined group"), dee.output)
        let eve = try world.cli.run(["join", "--home", world.home("eve"), url, "--timeout", "30"])
        XCTAssertEqual(eve.status, 3, eve.output)
        XCTAssertTrue(eve.output.contains("This invite was already used"), eve.output)

        // kill -9, then restart: the stored requests are caught up again but nothing is decided or sent twice.
        kill(serve.processIdentifier, SIGKILL)
        XCTAssertTrue(RelayProcess.waitForExit(serve, timeout: 10))
        let restarted = try world.cli.run(["serve", "--home", world.home("ada"), "--duration", "3", "--interval", "0.3"])
        XCTAssertEqual(restarted.status, 0, restarted.output)
        XCTAssertFalse(restarted.output.contains("join request"), restarted.output)
        XCTAssertFalse(restarted.output.contains("published"), restarted.output)

        let (again, againOut) = try world.cli.start(["serve", "--home", world.home("ada")])
        XCTAssertTrue(waitFor(againOut, "serving on"))
        kill(again.processIdentifier, SIGTERM)
        XCTAssertTrue(RelayProcess.waitForExit(again, timeout: 15))
        XCTAssertEqual(again.terminationStatus, 0)
        XCTAssertTrue(waitFor(againOut, "stopped", timeout: 2), againOut.text)
    }
}
