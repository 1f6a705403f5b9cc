import XCTest
import Foundation
import InviteKitTestSupport

/// `invitekit invite link create|list|requests|approve|decline|revoke` as real processes over the
/// real nostr-relay on loopback (docs/cli.md §5): a link created from the command and through a
/// running `serve`, listed with its code, revoked, and readable refusals with non-zero exits.
/// A requester's `invite link join` is not run here: a code names `wss://` relays only and the
/// loopback relay is `ws://` (the node-to-node join is InviteLinkEndToEndRealRelayTests).
final class InviteLinkAdminProcessTests: XCTestCase {
    private var world: CLIRelayWorld!
    private let codeRelay = "wss://links.invitekit.invalid"

    override func setUpWithError() throws {
        world = try CLIRelayWorld(prefix: "invitekit-link-admin")
    }

    override func tearDown() {
        world?.tearDown()
    }

    private func cli(_ args: [String]) throws -> (status: Int32, output: String) {
        try world.cli.run(args, timeout: 90)
    }

    func testAnAdminCreatesListsAndRevokesALinkWithReadableRefusals() throws {
        let home = world.home("ada")
        XCTAssertEqual(try cli(["init", "--home", home, "--relay", world.relay.url]).status, 0)
        let group = try cli(["group", "new", "--home", home, "--name", "club"]).output.trimmingCharacters(in: .whitespacesAndNewlines)

        // The group's only relay is ws://: a code needs a wss:// one.
        let noWss = try cli(["invite", "link", "create", "--home", home, "--group", group])
        XCTAssertEqual(noWss.status, 3, noWss.output)
        XCTAssertTrue(noWss.output.contains("wss:// relays"), noWss.output)

        // Created by the command's own node: the code once the policy Commit is applied, and its QR. The
        // code relay does not answer: the command waits its --timeout for the descriptor, then returns.
        let made = try cli(["invite", "link", "create", "--home", home, "--group", group, "--name", "Club", "--description", "Sundays",
                            "--relay", codeRelay, "--qr", "--timeout", "15"])
        XCTAssertEqual(made.status, 0, made.output)
        let code = try XCTUnwrap(made.output.split(separator: "\n").first { $0.hasPrefix("marmot1") }.map(String.init), made.output)
        XCTAssertTrue(made.output.contains("█") || made.output.contains("▀") || made.output.contains("▄"), "the QR is drawn")
        let preview = try cli(["invite", "link", "qr", code])
        XCTAssertEqual(preview.status, 0, "the printed code decodes")

        // Through a running serve: the request is handed over and answered.
        let (_, served) = try world.cli.start(["serve", "--home", home, "--interval", "0.3"])
        XCTAssertTrue(CLIProcesses.waitFor(30) { served.text.contains("serving on") }, served.text)
        let automatic = try cli(["invite", "link", "create", "--home", home, "--group", group, "--auto", "--expires-in", "3600",
                                 "--relay", codeRelay, "--json"])
        XCTAssertEqual(automatic.status, 0, automatic.output)
        XCTAssertTrue(automatic.output.contains("\"code\""), automatic.output)

        let listed = try cli(["invite", "link", "list", "--home", home, "--group", group, "--json"])
        XCTAssertEqual(listed.status, 0, listed.output)
        XCTAssertTrue(listed.output.contains(code), listed.output)
        XCTAssertTrue(listed.output.contains("\"automatic\""), listed.output)
        let linkID = try XCTUnwrap(listed.output.components(separatedBy: "\"link\":\"").dropFirst().first?.prefix(64).description, listed.output)

        let requests = try cli(["invite", "link", "requests", "--home", home, "--group", group])
        XCTAssertEqual(requests.status, 0, requests.output)
        XCTAssertTrue(requests.output.contains("no invite-link requests"), requests.output)
        let unknown = String(repeating: "ab", count: 32)
        let approve = try cli(["invite", "link", "approve", "--home", home, "--group", group, unknown])
        XCTAssertEqual(approve.status, 3, approve.output)
        XCTAssertTrue(approve.output.contains("no such request"), approve.output)

        let revoked = try cli(["invite", "link", "revoke", "--home", home, "--group", group, linkID])
        XCTAssertEqual(revoked.status, 0, revoked.output)
        XCTAssertTrue(revoked.output.contains("confirmed"), revoked.output)
        let again = try cli(["invite", "link", "revoke", "--home", home, "--group", group, linkID])
        XCTAssertEqual(again.status, 3, again.output)
        XCTAssertTrue(again.output.contains("no active invite link"), again.output)
        let after = try cli(["invite", "link", "list", "--home", home, "--group", group, "--json"])
        XCTAssertTrue(after.output.contains("\"retired\""), after.output)
    }
}
