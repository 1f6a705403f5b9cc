import XCTest
import Foundation
import InviteKitTestSupport

/// The hand-off to `serve` is exact (docs/node.md, "The inbox"): with a busy `serve`, each of
/// 50 `group send --timeout 1` is either sent exactly once or reported `not_sent`, never both.
final class NodeInboxProcessTests: XCTestCase {
    private var world: CLIRelayWorld!

    override func setUpWithError() throws { world = try CLIRelayWorld(prefix: "invitekit-inbox") }
    override func tearDown() { world?.tearDown() }

    private func waitFor(_ timeout: TimeInterval = 30, _ condition: () throws -> Bool) rethrows -> Bool {
        try CLIProcesses.waitFor(timeout, condition)
    }

    /// The `content` of every message in a home's history, with repeats.
    private func history(_ name: String, _ group: String) throws -> [String] {
        let out = try world.cli.run(["group", "read", "--home", world.home(name), "--group", group, "--json"]).output
        return out.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])?["content"]
        }
    }

    func testFiftyQuickSendsAgainstABusyServeAreSentOnceOrReportedNotSent() throws {
        for name in ["ada", "dee"] { XCTAssertEqual(try world.cli.run(["init", "--home", world.home(name), "--relay", world.relay.url]).status, 0) }
        let (_, adaOut) = try world.cli.start(["serve", "--home", world.home("ada"), "--new-group", "club", "--interval", "0.2"])
        XCTAssertTrue(waitFor { adaOut.text.contains("invite: ") }, adaOut.text)
        let url = try XCTUnwrap(adaOut.text.components(separatedBy: "invite: ").last?.components(separatedBy: "\n").first)
        let group = try XCTUnwrap(adaOut.text.components(separatedBy: "group ").dropFirst().first?.components(separatedBy: " ").first)
        let joined = try world.cli.run(["join", "--home", world.home("dee"), url, "--timeout", "60"])
        XCTAssertEqual(joined.status, 0, joined.output + adaOut.text)

        // Ten at a time, so serve always has requests waiting while it publishes.
        var reported: [String: String] = [:]
        for batch in 0..<5 {
            let started = try (0..<10).map { i -> (String, Process, ProcessOutput) in
                let text = "m\(batch * 10 + i)"
                let (p, out) = try world.cli.start(["group", "send", "--home", world.home("ada"), "--group", group, "--timeout", "1", "--json", text])
                return (text, p, out)
            }
            for (text, p, out) in started {
                p.waitUntilExit()
                let status = out.text.split(separator: "\n").compactMap { line in
                    (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])?["status"]
                }.first
                reported[text] = status ?? "no status: \(out.text)"
                if p.terminationStatus == 0 { XCTAssertEqual(status, "acked", out.text) }
            }
        }
        XCTAssertEqual(reported.count, 50)
        for (text, status) in reported {
            XCTAssertTrue(["acked", "queued", "not_sent"].contains(status), "\(text): \(status)")
        }
        let sent = Set(reported.filter { $0.value != "not_sent" }.keys)
        // Everything taken is in ada's history once, and reaches dee once; nothing withdrawn does.
        XCTAssertTrue(try waitFor(60) { try Set(history("ada", group)).isSuperset(of: sent) })
        let adaHistory = try history("ada", group)
        for text in reported.keys {
            XCTAssertEqual(adaHistory.filter { $0 == text }.count, sent.contains(text) ? 1 : 0, "\(text) (\(reported[text]!)) in ada's history")
        }
        let (_, deeOut) = try world.cli.start(["serve", "--home", world.home("dee"), "--interval", "0.2"])
        XCTAssertTrue(try waitFor(90) { try Set(history("dee", group)).isSuperset(of: sent) }, deeOut.text)
        let deeHistory = try history("dee", group)
        for text in reported.keys {
            XCTAssertEqual(deeHistory.filter { $0 == text }.count, sent.contains(text) ? 1 : 0, "\(text) (\(reported[text]!)) at dee")
        }
        let inbox = (world.home("ada") as NSString).appendingPathComponent("inbox")
        let left = try FileManager.default.contentsOfDirectory(atPath: inbox).filter { $0 != "serving" }
        XCTAssertEqual(left, [], "no request file is left behind")
        for name in try FileManager.default.contentsOfDirectory(atPath: inbox) {
            let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: (inbox as NSString).appendingPathComponent(name))[.posixPermissions] as? Int)
            XCTAssertEqual(mode & 0o077, 0, name)
        }
    }
}
