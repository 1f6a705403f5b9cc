import Foundation
import XCTest
import InviteKitTestSupport

/// Relative paths (issue 31): `--home A`, `$INVITEKIT_HOME=A`, `--state g.group` and output
/// files are resolved against the working directory once (`AbsolutePath`, docs/cli.md §3);
/// `init --home A` used to die with SIGILL (exit 132) inside Foundation.
final class RelativePathCLITests: XCTestCase {
    private var tmp: TemporaryDirectory!
    private var cwd: String { tmp.path }

    override func setUpWithError() throws { tmp = TemporaryDirectory(prefix: "ik-rel") }
    override func tearDownWithError() throws { tmp = nil }

    private func ok(_ args: [String], env: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) throws -> CLI.Run {
        let r = try CLI.run(args, env: env, cwd: cwd)
        XCTAssertEqual(r.status, 0, "invitekit \(args.joined(separator: " ")): \(r.err)", file: file, line: line)
        return r
    }

    func testNodeCommandsTakeARelativeHome() throws {
        let created = try ok(["init", "--home", "A", "--relay", "wss://relay.example.com"])
        XCTAssertTrue(created.out.contains("created \(cwd)/A"), created.out)
        XCTAssertTrue(FileManager.default.fileExists(atPath: cwd + "/A/identity.key"))
        let group = try ok(["group", "new", "--home", "A", "--name", "rel"]).out.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(group.isEmpty)
        XCTAssertTrue(try ok(["group", "list", "--home", "A"]).out.contains(group))
        XCTAssertTrue(try ok(["id", "--home", "./A"]).out.contains("npub"))
        _ = try ok(["doctor", "--home", "A/"])
        // The same home through the environment, and a nested relative path.
        XCTAssertTrue(try ok(["group", "list"], env: ["INVITEKIT_HOME": "A"]).out.contains(group))
        _ = try ok(["init", "--home", "sub/B", "--relay", "wss://relay.example.com"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: cwd + "/sub/B/identity.key"))
    }

    func testStateAndOutputFilesTakeRelativePaths() throws {
        let key = ["INVITEKIT_SECRET_KEY": String(repeating: "11", count: 32)]
        _ = try ok(["mls", "create", "--state", "g.group", "--name", "n", "--relay", "wss://relay.example.com"], env: key)
        XCTAssertTrue(FileManager.default.fileExists(atPath: cwd + "/g.group"))
        _ = try ok(["mls", "send", "--state", "g.group", "--content", "hi"], env: key)
        let link = try ok(["invite", "create", "--group-id", String(repeating: "ab", count: 32), "--relay", "wss://relay.example.com"], env: key)
            .out.split(separator: "\n").first.map(String.init) ?? ""
        _ = try ok(["invite", "qr", link, "--png", "qr.png"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: cwd + "/qr.png"))
    }
}
