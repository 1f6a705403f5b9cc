import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit
@testable import InviteKitMLS

/// An automatic invite link's admin killed (`kill -9`) at each of its publish boundaries
/// (PROTOCOL §5.14.15, §5.14.17): once a relay has the policy Commit, the descriptor, the
/// approval's Add and the `invited` status but before their `OK` was recorded, and once the Add
/// was applied but before its Welcome was written. Each restart sends the same event again (the
/// relay stores one of each), never a second link or a second Add, and the requester (a node
/// process too) joins and associates its join; afterwards another approval is refused. Real
/// processes over the real nostr-relay on loopback.
final class InviteLinkAdminCrashTests: XCTestCase {
    private var world: CLIRelayWorld!
    private static let codeRelay = "wss://links.invitekit.test"

    override func setUpWithError() throws { world = try CLIRelayWorld(prefix: "invitekit-link-admin-crash") }
    override func tearDown() { world?.tearDown() }

    func testKillingTheAdminAtEachPublishBoundaryLosesNothingAndRepeatsNothing() async throws {
        let app = world.cli.executable.deletingLastPathComponent().appendingPathComponent("invitekit-node-app")
        guard FileManager.default.isExecutableFile(atPath: app.path) else { throw XCTSkip("invitekit-node-app is not built next to the tests") }
        let local = world.relay.url
        let home = world.home("ada"), joinerHome = world.home("bob")
        func killed(at failPoint: String) throws -> String {
            let (p, out) = try world.cli.launch(app, ["link-admin", home, local, Self.codeRelay], env: ["INVITEKIT_FAILPOINT": failPoint])
            XCTAssertTrue(RelayProcess.waitForExit(p, timeout: 60), "\(failPoint): \(out.text)")
            XCTAssertEqual(p.terminationStatus, SIGKILL, "\(failPoint): \(out.text)")
            return out.text
        }
        func admin() -> NodeHome { NodeHome(StoreHome(directory: home)) }
        let groupEvents = NostrFilter(kinds: [MarmotProfile.groupEventKind])

        // 1. The policy Commit is on the relay, its OK not recorded: the link is still activating.
        let first = try killed(at: "node.flush.before_commit_ok")
        let groupID = try XCTUnwrap(first.split(separator: "\n").first { $0.hasPrefix("GROUP ") }.map { String($0.dropFirst(6)) }, first)
        let activating = try admin().inviteLinks(in: groupID)
        XCTAssertEqual(activating.map(\.state), [.activating])
        var commits = await fetch(groupEvents)
        XCTAssertEqual(commits.count, 1, "the policy Commit reached the relay")

        // 2. Restarted: the same Commit again, applied; the descriptor it released is on the relay.
        _ = try killed(at: "node.flush.before_invite_descriptor_ok")
        // Applied in the transaction that recorded the OK; the link's row turns active at the next
        // settle (the kill came first), so it may still read activating.
        XCTAssertEqual(try admin().members(of: groupID).epoch, 1, "the policy Commit was applied")
        let active = try admin().inviteLinks(in: groupID)
        XCTAssertEqual(active.map(\.linkID), activating.map(\.linkID), "the same link, not a second one")
        commits = await fetch(groupEvents)
        XCTAssertEqual(commits.count, 1, "no second policy Commit")
        let link = try XCTUnwrap(active.first)
        let descriptors = await fetch(NostrFilter(authors: [Hex.encode(link.code.inboxPublicKey)], kinds: [InviteLinkNostr.descriptorKind]))
        XCTAssertEqual(descriptors.count, 1)

        // 3. A requester sends its request while the admin is down.
        let (bob, bobOut) = try world.cli.launch(app, ["link-joiner", joinerHome, local, link.code.bech32m, Self.codeRelay])
        XCTAssertTrue(CLIProcesses.waitFor(60) { bobOut.text.contains("REQUEST ") }, bobOut.text)
        let sent = try await waitFor { try NodeHome(StoreHome(directory: joinerHome)).inviteLinkJoins().first?.delivery == .acked }
        XCTAssertTrue(sent, bobOut.text)

        // 4. Restarted: the request is admitted and approved (automatic); the Add is on the relay.
        _ = try killed(at: "node.flush.before_commit_ok")
        let approving = try admin().inviteRequests(in: groupID)
        XCTAssertEqual(approving.map(\.state), [.open])
        XCTAssertEqual(approving.map(\.approving), [true], "the approval's obligation is stored")
        commits = await fetch(groupEvents)
        XCTAssertEqual(commits.count, 2)

        // 5. Restarted: the same Add, its OK recorded and applied; killed before the Welcome is written.
        _ = try killed(at: "node.flush.before_welcome")
        XCTAssertEqual(try admin().members(of: groupID).epoch, 2, "the policy Commit and one Add")
        commits = await fetch(groupEvents)
        XCTAssertEqual(commits.count, 2, "no second Add")
        XCTAssertFalse(bobOut.text.contains("JOINED"), "no Welcome yet")

        // 6. Restarted: the Welcome goes, the request is realized, the invited status is on the relay.
        _ = try killed(at: "node.flush.before_invite_status_ok")
        XCTAssertTrue(CLIProcesses.waitFor(60) { bobOut.text.contains("JOINED ") }, bobOut.text)
        XCTAssertEqual(try admin().inviteRequests(in: groupID).map(\.state), [.realized])

        // 7. Restarted with no fail point: the status once more. The requester's process ended at
        // its join; run again, it reads the status and associates the join.
        let (ada, adaOut) = try world.cli.launch(app, ["link-admin", home, local, Self.codeRelay])
        XCTAssertTrue(CLIProcesses.waitFor(60) { adaOut.text.contains("LINK ") }, adaOut.text)
        XCTAssertTrue(RelayProcess.waitForExit(bob, timeout: 30), bobOut.text)
        let codeRelay = Self.codeRelay
        let joiner = try InviteKitNode(home: StoreHome(directory: joinerHome),
                                       configuration: .init(relayTimeout: .seconds(5), idleInterval: .milliseconds(100),
                                                            connector: { WebSocketRelayClient(url: $0 == codeRelay ? local : $0) }))
        let joinerRun = joiner.runInBackground()
        let associated = try await waitFor { try NodeHome(StoreHome(directory: joinerHome)).inviteLinkJoins().first?.status == .joined }
        XCTAssertTrue(associated, "the invited status reached the requester")
        joinerRun.cancel()
        await joiner.shutdown()
        XCTAssertEqual(try admin().members(of: groupID).epoch, 2, "one Add in all")
        ada.terminate()
        XCTAssertTrue(RelayProcess.waitForExit(ada, timeout: 30))

        // The realized request takes no other Add.
        let node = try InviteKitNode(home: StoreHome(directory: home))
        do {
            _ = try await node.decideInviteRequest(approving[0].requestID, in: groupID, approve: true)
            XCTFail("a second approval of a realized request")
        } catch {
            XCTAssertEqual(error.code, .inviteRevoked, "\(error)")
            XCTAssertEqual(error.underlyingCode, "invite_request_closed")
        }
        await node.shutdown()
    }

    private func fetch(_ filter: NostrFilter) async -> [NostrEvent] {
        let pool = RelayPool([WebSocketRelayClient(url: world.relay.url)])
        let result = await pool.fetch([filter], timeout: .seconds(10))
        await pool.close()
        return result.events
    }

    private func waitFor(_ seconds: Double = 60, _ condition: () throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try condition()
    }
}
