import XCTest
import Foundation
import InviteKitTestSupport

/// The CLI on separate hosts: relay, inviter and two joiners each in their own network
/// namespace on one bridge (`scripts/netns/scenario.sh`), nothing shared over loopback. Skipped,
/// with the reason, where namespaces cannot be made (not root, no CAP_NET_ADMIN).
final class NodeNetnsTests: XCTestCase {
    func testInviterAndJoinersOnSeparateHostsThroughTheRelaysAddress() throws {
        try RelayProcess.requireRelay()
        let cli = try CLIProcesses()
        let script = RelayProcess.packageRoot.appendingPathComponent("scripts/netns/scenario.sh")
        let (p, out) = try cli.launch(URL(fileURLWithPath: "/bin/bash"), [script.path, cli.executable.path])
        guard RelayProcess.waitForExit(p, timeout: 240) else {
            p.terminate()
            return XCTFail("the scenario did not finish: \(out.text)")
        }
        // Its last lines: end of file, or what came within 10 s if a child it started holds the pipe.
        out.waitForEnd(timeout: 10)
        if p.terminationStatus == 77 { throw XCTSkip("network namespaces unavailable: \(out.text)") }
        XCTAssertEqual(p.terminationStatus, 0, out.text)
        XCTAssertTrue(out.text.contains("eve (") && out.text.contains("This invite was already used"), out.text)
        XCTAssertTrue(out.text.hasSuffix("netns scenario passed\n"), out.text)
    }
}
