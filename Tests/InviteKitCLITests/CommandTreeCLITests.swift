import Foundation
import XCTest
import InviteKitTestSupport

/// The command trees as `--help` shows them, with no command line rewritten: `group` is a node's
/// groups, `mls` the state-file tool, and `invite create` has a node form (`--group`) and a
/// stateless one (`--group-id`) that refuse each other's options.
final class CommandTreeCLITests: XCTestCase {
    private func assertLists(_ args: [String], _ names: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try CLI.run(args)
        XCTAssertEqual(r.status, 0, r.err, file: file, line: line)
        for name in names { XCTAssertTrue(r.out.contains("\n  \(name) "), "\(args) does not list \(name): \(r.out)", file: file, line: line) }
        XCTAssertFalse(r.out.contains("node-"), r.out, file: file, line: line)
    }

    func testHelpShowsEachTreeWhole() throws {
        try assertLists(["--help"], ["group", "mls", "invite"])
        try assertLists(["group", "--help"], ["new", "list", "members", "send", "read", "react", "reply", "edit", "delete", "add", "remove", "leave", "update", "retention"])
        try assertLists(["mls", "--help"], ["create", "add", "remove", "update", "leave", "confirm", "process", "send", "simulate"])
        try assertLists(["invite", "--help"], ["create", "decode", "verify", "qr", "revoke", "requests", "approve", "decline"])
    }

    /// The old spelling of the state-file commands is a usage error that names the `mls`
    /// command, and nothing runs.
    func testStateFileFormsUnderGroupPointAtMLS() throws {
        let tmp = TemporaryDirectory(prefix: "ik-cli")
        defer { withExtendedLifetime(tmp) {} }
        let state = tmp.file("g.group")
        let key = ["INVITEKIT_SECRET_KEY": MLSCLITests.aliceKey]
        for (args, subcommand) in [(["group", "send", "--state", state, "--content", "x"], "send"),
                                   (["group", "create", "--state", state, "--name", "n", "--relay", MLSCLITests.relay], "create"),
                                   (["group", "add", "--state=\(state)"], "add"),
                                   (["group", "simulate", "--members", "3"], "simulate")] {
            let r = try CLI.run(args, env: key)
            XCTAssertEqual(r.status, 64, "\(args): \(r.err)")
            XCTAssertTrue(r.err.contains("`invitekit mls \(subcommand)`"), "\(args): \(r.err)")
            XCTAssertEqual(r.out, "", "\(args)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: state), "a refused command line wrote the state file")
        // A node command's own usage error stays the parser's.
        let node = try CLI.run(["group", "send", "--group", "g"])
        XCTAssertEqual(node.status, 64, node.err)
        XCTAssertFalse(node.err.contains("invitekit mls"), node.err)
    }

    func testInviteCreateRefusesTheOtherFormsOptions() throws {
        let tmp = TemporaryDirectory(prefix: "ik-cli")
        defer { withExtendedLifetime(tmp) {} }
        let home = tmp.file("home")
        let key = ["INVITEKIT_SECRET_KEY": MLSCLITests.aliceKey]
        let cases: [([String], String)] = [
            (["invite", "create", "--group", "g", "--home", home, "--relay", "wss://r.example"], "--relay applies to the stateless invite"),
            (["invite", "create", "--group", "g", "--home", home, "--secret-key", MLSCLITests.aliceKey], "--secret-key applies to the stateless invite"),
            (["invite", "create", "--group", "g", "--home", home, "--expires-in", "400000000"], "1...315360000"),
            (["invite", "create", "--group-id", "g", "--relay", "wss://r.example", "--home", home], "--home applies to a node's invite"),
            (["invite", "create", "--relay", "wss://r.example"], "--group-id"),
        ]
        for (args, message) in cases {
            let r = try CLI.run(args, env: key)
            XCTAssertEqual(r.status, 64, "\(args): \(r.err)")
            XCTAssertTrue(r.err.contains(message), "\(args): \(r.err)")
            XCTAssertEqual(r.out, "", "\(args)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: home), "a refused command line made the home")
    }
}
