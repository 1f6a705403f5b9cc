import XCTest
import Foundation
import InviteKitTestSupport

/// Two apps written against the public API only (`invitekit-node-app`, an inviter and a
/// joiner), each in its own process over the real relay, killed with `kill -9` at random points
/// and restarted: every ping and every pong ends up in both histories exactly once, and in both
/// apps' feed logs (`feed(since:)` from a cursor the app keeps) exactly once, each sender's in order.
final class NodeAppProcessTests: XCTestCase {
    private var world: CLIRelayWorld!

    override func setUpWithError() throws { world = try CLIRelayWorld(prefix: "invitekit-apps") }
    override func tearDown() { world?.tearDown() }

    private func waitFor(_ timeout: TimeInterval = 30, _ condition: () throws -> Bool) rethrows -> Bool {
        try CLIProcesses.waitFor(timeout, condition)
    }

    /// Every message's content in a home's history, read without its lock (`group read`).
    private func history(_ name: String, _ group: String) throws -> [(content: String, outgoing: Bool)] {
        let me = try XCTUnwrap(world.cli.run(["id", "--home", world.home(name), "--json"]).output
            .components(separatedBy: "\"npub\":\"").dropFirst().first?.components(separatedBy: "\"").first)
        let out = try world.cli.run(["group", "read", "--home", world.home(name), "--group", group, "--json"]).output
        return out.split(separator: "\n").compactMap { line in
            guard let o = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: String], let c = o["content"] else { return nil }
            return (c, o["sender"] == me)
        }
    }

    /// An app's `feed.log` (Tests/InviteKitNodeApp/FeedLog.swift): sequence, created_at,
    /// outgoing, content per line.
    private func feedLog(_ name: String) -> [(sequence: Int64, createdAt: Int64, outgoing: Bool, content: String)] {
        let path = (world.home(name) as NSString).appendingPathComponent("feed.log")
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false)
            guard f.count == 4, let s = Int64(f[0]), let t = Int64(f[1]) else { return nil }
            return (s, t, f[2] == "1", String(f[3]))
        }
    }

    func testAnInviterAppAndAJoinerAppSurviveKill9WithNothingLostOrDoubled() throws {
        let app = world.cli.executable.deletingLastPathComponent().appendingPathComponent("invitekit-node-app")
        guard FileManager.default.isExecutableFile(atPath: app.path) else { throw XCTSkip("invitekit-node-app is not built next to the tests") }
        let count = 12
        func inviter() throws -> (Process, ProcessOutput) { try world.cli.launch(app, ["inviter", world.home("ada"), world.relay.url]) }
        var (ada, adaOut) = try inviter()
        XCTAssertTrue(waitFor { adaOut.text.contains("INVITE ") }, adaOut.text)
        let url = try XCTUnwrap(adaOut.text.components(separatedBy: "INVITE ").last?.components(separatedBy: "\n").first)
        let group = try XCTUnwrap(adaOut.text.components(separatedBy: "GROUP ").last?.components(separatedBy: "\n").first)
        func joiner() throws -> (Process, ProcessOutput) { try world.cli.launch(app, ["joiner", world.home("dee"), world.relay.url, url, "\(count)"]) }
        var (dee, deeOut) = try joiner()

        // Kill one side or the other at random moments while they work, then start it again.
        var generator = SystemRandomNumberGenerator()
        for round in 0..<6 {
            let victim = round % 2 == 0 ? dee : ada
            usleep(UInt32.random(in: 100_000...900_000, using: &generator))
            kill(victim.processIdentifier, SIGKILL)
            XCTAssertTrue(RelayProcess.waitForExit(victim, timeout: 10))
            if round % 2 == 0 { (dee, deeOut) = try joiner() } else { (ada, adaOut) = try inviter() }
        }
        XCTAssertTrue(waitFor(120) { deeOut.text.contains("DONE") }, "joiner: \(deeOut.text)\ninviter: \(adaOut.text)")

        let expectedPings = Set((0..<count).map { "ping \($0)" }), expectedPongs = Set((0..<count).map { "pong \($0)" })
        XCTAssertTrue(try waitFor(30) { try history("ada", group).filter(\.outgoing).count >= count })
        for (name, sends, receives) in [("dee", expectedPings, expectedPongs), ("ada", expectedPongs, expectedPings)] {
            let h = try history(name, group)
            let out = h.filter(\.outgoing).map(\.content), inn = h.filter { !$0.outgoing }.map(\.content)
            XCTAssertEqual(out.count, count, "\(name) sent: \(out)")
            XCTAssertEqual(Set(out), sends, name)
            XCTAssertEqual(inn.count, count, "\(name) received: \(inn)")
            XCTAssertEqual(Set(inn), receives, name)

            // The app's feed log: every stored message once, in storage order, the other app's in
            // the order they were made.
            XCTAssertTrue(waitFor(30) { feedLog(name).count >= h.count }, "\(name) feed log: \(feedLog(name))")
            let log = feedLog(name)
            XCTAssertEqual(log.map(\.sequence), log.map(\.sequence).sorted(), "\(name): the feed went back")
            XCTAssertEqual(Set(log.map(\.sequence)).count, log.count, "\(name): a message came twice")
            XCTAssertEqual(log.map { "\($0.outgoing) \($0.content)" }.sorted(), h.map { "\($0.outgoing) \($0.content)" }.sorted(), name)
            let received = log.filter { !$0.outgoing }.map(\.createdAt)
            XCTAssertEqual(received, received.sorted(), "\(name): the other app's messages out of order")
        }
        _ = (ada, dee)
    }
}
