import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit
@testable import InviteKitMLS

/// The requester of an invite link killed (`kill -9`) at each publish boundary (PROTOCOL
/// §5.14.16): inside the consent's transaction (nothing stored, nothing sent), and after the relay
/// took the request but before its `OK` was recorded (an uncertain publication: the restart sends
/// the identical wrap again, and the admin sees one request). Real processes over the real
/// nostr-relay on loopback; the admin is built from the protocol core.
final class InviteLinkJoinCrashTests: XCTestCase {
    private var world: CLIRelayWorld!
    private static let codeRelay = "wss://links.invitekit.test"

    override func setUpWithError() throws { world = try CLIRelayWorld(prefix: "invitekit-link-crash") }
    override func tearDown() { world?.tearDown() }

    func testKillAtEachPublishBoundaryLosesNothingAndSendsOneRequest() async throws {
        let app = world.cli.executable.deletingLastPathComponent().appendingPathComponent("invitekit-node-app")
        guard FileManager.default.isExecutableFile(atPath: app.path) else { throw XCTSkip("invitekit-node-app is not built next to the tests") }
        let local = world.relay.url
        var admin = try InviteLinkTestAdmin(codeRelays: [Self.codeRelay], groupRelays: [local], seed: 21, now: UnixTime.now(),
                                            connect: { WebSocketRelayClient(url: local) })
        try await admin.publishDescriptor()
        let home = world.home("bob")
        func start(_ failPoint: String?) throws -> (Process, ProcessOutput) {
            try world.cli.launch(app, ["link-joiner", home, local, admin.code, Self.codeRelay],
                                 env: failPoint.map { ["INVITEKIT_FAILPOINT": $0] } ?? [:])
        }

        // 1. Killed inside the consent's transaction: no attempt, nothing on the relay.
        var (bob, out) = try start("node.invite_link.consent.before_commit")
        XCTAssertTrue(RelayProcess.waitForExit(bob, timeout: 60), out.text)
        XCTAssertEqual(bob.terminationStatus, SIGKILL, out.text)
        let none = try NodeHome(StoreHome(directory: home)).inviteLinkJoins()
        XCTAssertTrue(none.isEmpty, "nothing of the consent was stored")
        let nothingSent = try await admin.requests()
        XCTAssertTrue(nothingSent.isEmpty, "nothing was sent")

        // 2. Consents again; killed once the relay has the request and before its OK is recorded.
        (bob, out) = try start("node.flush.before_invite_link_request_ok")
        XCTAssertTrue(RelayProcess.waitForExit(bob, timeout: 60), out.text)
        XCTAssertEqual(bob.terminationStatus, SIGKILL, out.text)
        let stored = try NodeHome(StoreHome(directory: home)).inviteLinkJoins()
        XCTAssertEqual(stored.count, 1)
        XCTAssertEqual(stored.first?.delivery, .sent, "the publication is recorded as uncertain")

        // 3. Restarted: the same request (no second consent), sent again byte-identical.
        (bob, out) = try start(nil)
        XCTAssertTrue(CLIProcesses.waitFor(30) { out.text.contains("REQUEST \(stored[0].requestID)") }, out.text)
        var requests: [InviteRequestV1] = []
        let acked = try await waitFor {
            try NodeHome(StoreHome(directory: home)).inviteLinkJoins().first?.delivery == .acked
        }
        XCTAssertTrue(acked, out.text)
        for op in try await admin.requests() { if case .request(let r) = op { requests.append(r) } }
        XCTAssertEqual(requests.count, 1, "one request wrap on the relay, however often it was sent")
        try await admin.approve(try XCTUnwrap(requests.first))
        XCTAssertTrue(CLIProcesses.waitFor(60) { out.text.contains("JOINED \(Hex.encode(admin.group.state.groupID))") }, out.text)
        bob.terminate()
    }

    private func waitFor(_ seconds: Double = 30, _ condition: () throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try condition()
    }
}
