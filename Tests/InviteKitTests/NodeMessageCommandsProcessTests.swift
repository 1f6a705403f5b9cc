import XCTest
import Foundation
import InviteKitTestSupport

/// `group react|reply|edit|delete|retention` and `group read` as real processes over the real
/// nostr-relay (docs/cli.md §5; PROTOCOL §5.15): ada serves her group, dee's serve keeps hers;
/// each command hands its request to the home's `serve`.
final class NodeMessageCommandsProcessTests: XCTestCase {
    private var world: CLIRelayWorld!

    override func setUpWithError() throws {
        world = try CLIRelayWorld(prefix: "invitekit-message-commands")
    }

    override func tearDown() {
        world?.tearDown()
    }

    private func waitFor(_ timeout: TimeInterval = 30, _ condition: () throws -> Bool) rethrows -> Bool {
        try CLIProcesses.waitFor(timeout, condition)
    }

    private func read(_ name: String, _ group: String, json: Bool = false) throws -> String {
        try world.cli.run(["group", "read", "--home", world.home(name), "--group", group] + (json ? ["--json"] : [])).output
    }

    func testReactReplyEditDeleteAndRetentionThroughTheCLI() throws {
        for name in ["ada", "dee"] { XCTAssertEqual(try world.cli.run(["init", "--home", world.home(name), "--relay", world.relay.url]).status, 0) }
        let (_, adaOut) = try world.cli.start(["serve", "--home", world.home("ada"), "--new-group", "club", "--interval", "0.3"])
        XCTAssertTrue(waitFor { adaOut.text.contains("invite: ") }, adaOut.text)
        let url = try XCTUnwrap(adaOut.text.components(separatedBy: "invite: ").last?.components(separatedBy: "\n").first)
        let group = try XCTUnwrap(adaOut.text.components(separatedBy: "group ").dropFirst().first?.components(separatedBy: " ").first)
        XCTAssertEqual(try world.cli.run(["join", "--home", world.home("dee"), url, "--no-wait"]).status, 0)
        let (_, deeOut) = try world.cli.start(["serve", "--home", world.home("dee"), "--interval", "0.3"])
        XCTAssertTrue(try waitFor(45) { try world.cli.run(["group", "list", "--home", world.home("dee")]).output.contains(group) }, deeOut.text)

        XCTAssertEqual(try world.cli.run(["group", "send", "--home", world.home("ada"), "--group", group, "hello dee"]).status, 0)
        XCTAssertEqual(try world.cli.run(["group", "send", "--home", world.home("ada"), "--group", group, "to be deleted"]).status, 0)
        XCTAssertTrue(try waitFor { try read("dee", group).contains("to be deleted") })
        // The message ids `group read` shows are what `--message` takes.
        func shortID(_ text: String, of body: String) throws -> String {
            let line = try XCTUnwrap(text.split(separator: "\n").first { $0.contains(body) })
            return try XCTUnwrap(line.split(separator: " ").first { $0.hasPrefix("#") }).dropFirst().description
        }
        let hello = try shortID(try read("dee", group), of: "hello dee"), doomed = try shortID(try read("ada", group), of: "to be deleted")

        let react = try world.cli.run(["group", "react", "--home", world.home("dee"), "--group", group, "--message", hello, "👍"])
        XCTAssertEqual(react.status, 0, react.output)
        XCTAssertTrue(react.output.hasPrefix("acked "), react.output)
        XCTAssertEqual(try world.cli.run(["group", "reply", "--home", world.home("dee"), "--group", group, "--message", hello, "hi ada"]).status, 0)
        let forged = try world.cli.run(["group", "edit", "--home", world.home("dee"), "--group", group, "--message", hello, "mine"])
        XCTAssertNotEqual(forged.status, 0)
        XCTAssertTrue(forged.output.contains("not_author"), forged.output)
        XCTAssertEqual(try world.cli.run(["group", "edit", "--home", world.home("ada"), "--group", group, "--message", hello, "hello, dee"]).status, 0)
        XCTAssertEqual(try world.cli.run(["group", "delete", "--home", world.home("ada"), "--group", group, "--message", doomed]).status, 0)

        let folded = try waitFor {
            let text = try read("dee", group)
            return text.contains("hello, dee  (edited)  [👍]") && text.contains("↳ #\(hello)  hi ada") && text.contains("(deleted)")
        }
        let deeView = try read("dee", group)
        XCTAssertTrue(folded, deeView)
        let rows = try read("ada", group, json: true)
        XCTAssertEqual(rows.split(separator: "\n").count, 3, "reactions, edits and deletions are not rows: \(rows)")
        XCTAssertTrue(rows.contains("\"reactions\":\"👍:1\""), rows)

        let denied = try world.cli.run(["group", "retention", "--home", world.home("dee"), "--group", group, "60"])
        XCTAssertNotEqual(denied.status, 0, denied.output)
        let retention = try world.cli.run(["group", "retention", "--home", world.home("ada"), "--group", group, "60"])
        XCTAssertEqual(retention.status, 0, retention.output)
        XCTAssertTrue(retention.output.contains("confirmed"), retention.output)
    }
}
