import XCTest
import Foundation
import InviteKitTestSupport

/// The multi-process home through the library alone (issue 30): `invitekit-node-app serve` owns a
/// home and serves it (``NodeHome/serve(_:onReady:onRequests:)``); a second app process hands it a
/// send (``NodeHome/perform(_:settle:timeout:eventBudget:)``) and gets the answer, the serving
/// node's errors included. No `invitekit` command runs.
final class NodeHomeProcessTests: XCTestCase {
    private var world: CLIRelayWorld!

    override func setUpWithError() throws { world = try CLIRelayWorld(prefix: "invitekit-home") }
    override func tearDown() { world?.tearDown() }

    private func app() throws -> URL {
        let app = world.cli.executable.deletingLastPathComponent().appendingPathComponent("invitekit-node-app")
        guard FileManager.default.isExecutableFile(atPath: app.path) else { throw XCTSkip("invitekit-node-app is not built next to the tests") }
        return app
    }

    /// Runs `invitekit-node-app args…` to its end and returns its output.
    private func runApp(_ args: [String]) throws -> String {
        let (p, out) = try world.cli.launch(try app(), args)
        XCTAssertTrue(RelayProcess.waitForExit(p, timeout: 60), "\(args.prefix(1)) did not finish")
        out.waitForEnd()
        XCTAssertEqual(p.terminationStatus, 0, out.text)
        return out.text
    }

    func testAnAppProcessHandsASendToTheServingNodeAndGetsItsAnswer() throws {
        let home = world.home("ada")
        let (server, serverOut) = try world.cli.launch(try app(), ["serve", home, world.relay.url])
        XCTAssertTrue(CLIProcesses.waitFor { serverOut.text.contains("SERVING") }, serverOut.text)
        let group = try XCTUnwrap(serverOut.text.components(separatedBy: "GROUP ").last?.components(separatedBy: "\n").first)

        let out = try runApp(["hand", home, group, "handed over"])
        XCTAssertTrue(out.contains("SERVED true"), out)
        let answer = try XCTUnwrap(out.components(separatedBy: "ANSWER ").last?.components(separatedBy: "\n").first, out)
        let parts = answer.split(separator: " ")
        XCTAssertEqual(parts.count, 2, out)
        XCTAssertEqual(parts.first?.count, 64, "the answer is the message's event id: \(out)")
        XCTAssertEqual(parts.last, "acked", "the serving node published it and a relay acknowledged it: \(out)")
        XCTAssertTrue(out.contains("HISTORY 1"), "the message is in the home's history once: \(out)")
        // The serving process took it from the inbox: the app could not open the home itself.
        XCTAssertTrue(serverOut.text.contains("TOOK 1"), serverOut.text)

        // The serving node's refusal comes back as the typed error it threw.
        let refused = try runApp(["hand", home, String(repeating: "f", count: 64), "to nowhere"])
        XCTAssertTrue(refused.contains("ERROR group_not_found"), refused)

        // Nothing is left in the inbox but the serve marker.
        let inbox = (home as NSString).appendingPathComponent("inbox")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: inbox), ["serving"])

        // Once the server is gone, the marker names no live process: the app runs the send on a
        // node of its own (no relay wait needed for the answer; it stays queued if unacked).
        kill(server.processIdentifier, SIGKILL)
        XCTAssertTrue(RelayProcess.waitForExit(server, timeout: 10))
        let alone = try runApp(["hand", home, group, "sent alone"])
        XCTAssertTrue(alone.contains("SERVED false"), alone)
        XCTAssertTrue(alone.contains("HISTORY 1"), alone)
    }
}
