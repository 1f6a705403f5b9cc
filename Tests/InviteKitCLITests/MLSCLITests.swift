import Foundation
import XCTest
import InviteKitTestSupport

/// `invitekit mls …` end to end through the binary: two members, a Welcome, messages both ways,
/// a removal after which the removed member reads nothing.
final class MLSCLITests: XCTestCase {
    static let relay = "wss://relay.invitekit.invalid"
    static let aliceKey = String(repeating: "11", count: 32)
    static let bobKey = String(repeating: "22", count: 32)

    /// Runs a command that must succeed and returns its JSON lines.
    static func lines(_ args: [String], key: String? = nil, stdin: [UInt8]? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let r = try CLI.run(args, stdin: stdin, env: key.map { ["INVITEKIT_SECRET_KEY": $0] } ?? [:])
        XCTAssertEqual(r.status, 0, "invitekit \(args.joined(separator: " ")): \(r.err)", file: file, line: line)
        return try r.out.split(separator: "\n").map { l in
            guard let o = try JSONSerialization.jsonObject(with: Data(l.utf8)) as? [String: Any] else { throw CLI.NotBuilt(tried: ["not a JSON object: \(l)"]) }
            return o
        }
    }

    /// An embedded event, as one line of JSON for the next command's stdin.
    static func eventLine(_ object: [String: Any]) throws -> [UInt8] {
        let event = try XCTUnwrap(object["event"] as? [String: Any])
        return Array(try JSONSerialization.data(withJSONObject: event)) + [0x0a]
    }

    static func publicKey(_ secret: String) throws -> String {
        let r = try CLI.run(["keys", "show", "--json", secret])
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        return try XCTUnwrap(o["publicKey"] as? String)
    }

    func testWholeGroupLifeThroughTheBinary() throws {
        let tmp = TemporaryDirectory(prefix: "ik-cli")
        defer { withExtendedLifetime(tmp) {} }
        let dir = tmp.url
        let alice = dir.appendingPathComponent("alice.group").path
        let bob = dir.appendingPathComponent("bob.group").path
        let bobStore = dir.appendingPathComponent("bob-keypackages").path
        let alicePub = try Self.publicKey(Self.aliceKey), bobPub = try Self.publicKey(Self.bobKey)

        let created = try Self.lines(["mls", "create", "--state", alice, "--name", "Test group", "--relay", Self.relay], key: Self.aliceKey)
        XCTAssertEqual(created.first?["type"] as? String, "created")
        XCTAssertEqual(created.first?["epoch"] as? Int, 0)
        XCTAssertEqual(created.first?["admins"] as? [String], [alicePub])

        let kp = try CLI.run(["keypackage", "create", "--relay", Self.relay, "--store", bobStore], env: ["INVITEKIT_SECRET_KEY": Self.bobKey])
        XCTAssertEqual(kp.status, 0, kp.err)

        let add = try Self.lines(["mls", "add", "--state", alice], stdin: kp.outBytes)
        XCTAssertEqual(add.first?["type"] as? String, "pending_commit")
        XCTAssertEqual(add.first?["added"] as? [String], [bobPub])
        XCTAssertEqual((add.first?["event"] as? [String: Any])?["kind"] as? Int, 445)

        let confirmed = try Self.lines(["mls", "confirm", "--state", alice, "--acked-by", Self.relay], key: Self.aliceKey)
        XCTAssertEqual(confirmed.first?["type"] as? String, "commit_confirmed")
        XCTAssertEqual(confirmed.first?["epoch"] as? Int, 1)
        let welcome = try XCTUnwrap(confirmed.first { $0["type"] as? String == "welcome" })
        XCTAssertEqual(welcome["recipient"] as? String, bobPub)
        XCTAssertEqual((welcome["event"] as? [String: Any])?["kind"] as? Int, 1059)

        let joined = try Self.lines(["mls", "process", "--state", bob, "--keypackage-store", bobStore], key: Self.bobKey,
                                    stdin: try Self.eventLine(welcome))
        XCTAssertEqual(joined.map { $0["type"] as? String }, ["joined"])
        XCTAssertEqual(joined.first?["epoch"] as? Int, 1)
        XCTAssertEqual(Set(joined.first?["members"] as? [String] ?? []), [alicePub, bobPub])
        XCTAssertEqual(joined.first?["nostr_group_id"] as? String, created.first?["nostr_group_id"] as? String)

        let toBob = try Self.lines(["mls", "send", "--state", alice, "--content", "hello bob"])
        let bobReads = try Self.lines(["mls", "process", "--state", bob], key: Self.bobKey, stdin: try Self.eventLine(toBob[0]))
        XCTAssertEqual(bobReads.first?["type"] as? String, "message")
        XCTAssertEqual(bobReads.first?["sender"] as? String, alicePub)
        XCTAssertEqual(bobReads.first?["content"] as? String, "hello bob")
        XCTAssertEqual(bobReads.first?["kind"] as? Int, 9)

        let toAlice = try Self.lines(["mls", "send", "--state", bob, "--content", "hello alice"])
        let aliceReads = try Self.lines(["mls", "process", "--state", alice], key: Self.aliceKey, stdin: try Self.eventLine(toAlice[0]))
        XCTAssertEqual(aliceReads.first?["type"] as? String, "message")
        XCTAssertEqual(aliceReads.first?["sender"] as? String, bobPub)
        XCTAssertEqual(aliceReads.first?["content"] as? String, "hello alice")

        // The same event again is a duplicate, not a second message.
        let again = try Self.lines(["mls", "process", "--state", alice], key: Self.aliceKey, stdin: try Self.eventLine(toAlice[0]))
        XCTAssertEqual(again.first?["type"] as? String, "duplicate")

        let remove = try Self.lines(["mls", "remove", "--state", alice, "--member", bobPub])
        XCTAssertEqual(remove.first?["type"] as? String, "pending_commit")
        let removed = try Self.lines(["mls", "confirm", "--state", alice, "--acked-by", Self.relay], key: Self.aliceKey)
        XCTAssertEqual(removed.first?["epoch"] as? Int, 2)
        XCTAssertFalse(removed.contains { $0["type"] as? String == "welcome" })
        let bobRemoved = try Self.lines(["mls", "process", "--state", bob], key: Self.bobKey, stdin: try Self.eventLine(remove[0]))
        XCTAssertEqual(bobRemoved.first?["type"] as? String, "removed")

        let secret = try Self.lines(["mls", "send", "--state", alice, "--content", "after bob left"])
        let bobAfter = try Self.lines(["mls", "process", "--state", bob], key: Self.bobKey, stdin: try Self.eventLine(secret[0]))
        XCTAssertEqual(bobAfter.count, 1)
        XCTAssertNotEqual(bobAfter.first?["type"] as? String, "message")
        XCTAssertFalse(bobAfter.description.contains("after bob left"))

        // A self-update by the remaining member moves the epoch on.
        let update = try Self.lines(["mls", "update", "--state", alice])
        XCTAssertEqual(update.first?["action"] as? String, "update")
        let updated = try Self.lines(["mls", "confirm", "--state", alice, "--acked-by", Self.relay], key: Self.aliceKey)
        XCTAssertEqual(updated.first?["epoch"] as? Int, 3)
    }

    func testSimulateOnTheNewEngine() throws {
        let facts = try Self.lines(["mls", "simulate", "--members", "4", "--removals", "1", "--json"])
        XCTAssertEqual(facts.map { $0["action"] as? String }, ["create", "add", "add", "add", "self_update", "remove"])
        XCTAssertTrue(facts.allSatisfy { $0["converged"] as? Bool == true && $0["removed_readers"] as? Int == 0 })
        XCTAssertEqual(facts.last?["members"] as? Int, 3)
    }

    /// `--max-event-bytes` (PROTOCOL §5.11): a Welcome whose tree does not fit goes with the tree in
    /// chunk events, printed before the Welcomes; every printed event fits the bound; a message
    /// over it is refused and leaves the state file as it was.
    func testMaxEventBytesPutsTheTreeInChunksAndRefusesAMessageOverIt() throws {
        let tmp = TemporaryDirectory(prefix: "ik-cli")
        defer { withExtendedLifetime(tmp) {} }
        let alice = tmp.url.appendingPathComponent("alice.group").path
        _ = try Self.lines(["mls", "create", "--state", alice, "--name", "budget", "--relay", Self.relay, "--out-of-band-tree"], key: Self.aliceKey)
        var keyPackages: [[UInt8]] = []
        for i in 1...40 {
            let secret = String(format: "%064x", 0x1000 + i)
            let kp = try CLI.run(["keypackage", "create", "--relay", Self.relay, "--store", tmp.url.appendingPathComponent("kp\(i)").path],
                                 env: ["INVITEKIT_SECRET_KEY": secret])
            XCTAssertEqual(kp.status, 0, kp.err)
            keyPackages.append(kp.outBytes)
        }
        let bound = 16_384
        // One Commit of 40 KeyPackages is over the bound: refused by name, nothing recorded.
        let tooMany = try CLI.run(["mls", "add", "--state", alice, "--max-event-bytes", "\(bound)"], stdin: keyPackages.flatMap { $0 })
        XCTAssertNotEqual(tooMany.status, 0)
        XCTAssertTrue(tooMany.err.contains("maxEventBytes is \(bound)") && tooMany.err.contains("event_too_large"), tooMany.err)
        let add = try Self.lines(["mls", "add", "--state", alice, "--max-event-bytes", "\(bound)"], stdin: keyPackages.prefix(20).flatMap { $0 })
        XCTAssertEqual((add.first?["added"] as? [String])?.count, 20)
        let confirmed = try Self.lines(["mls", "confirm", "--state", alice, "--acked-by", Self.relay, "--max-event-bytes", "\(bound)"], key: Self.aliceKey)
        let types = confirmed.compactMap { $0["type"] as? String }
        XCTAssertEqual(types.first, "commit_confirmed")
        XCTAssertGreaterThan(types.filter { $0 == "tree_chunk" }.count, 0, "a 21-leaf tree does not fit a 16 KiB Welcome")
        XCTAssertEqual(types.filter { $0 == "welcome" }.count, 20)
        XCTAssertEqual(types.lastIndex(of: "tree_chunk").map { $0 < types.firstIndex(of: "welcome")! }, true, "chunks come first")
        for line in confirmed.dropFirst() {
            let event = try JSONSerialization.data(withJSONObject: try XCTUnwrap(line["event"]))
            XCTAssertLessThanOrEqual(event.count + 10, bound)
        }
        // The `mls` tool's own joiner enters through the chunks (issue 31): given with its Welcome,
        // in any order, they make the tree; without them the join is `tree_chunks_missing`.
        let joinerSecret = String(format: "%064x", 0x1001)
        let joinerPub = try Self.publicKey(joinerSecret)
        let welcome = try XCTUnwrap(confirmed.first { $0["type"] as? String == "welcome" && $0["recipient"] as? String == joinerPub })
        let chunkLines = try confirmed.filter { $0["type"] as? String == "tree_chunk" }.map(Self.eventLine)
        let joiner = tmp.url.appendingPathComponent("joiner.group").path
        let joinerStore = tmp.url.appendingPathComponent("kp1").path
        let missing = try Self.lines(["mls", "process", "--state", joiner, "--keypackage-store", joinerStore], key: joinerSecret,
                                     stdin: try Self.eventLine(welcome))
        XCTAssertEqual(missing.first?["code"] as? String, "tree_chunks_missing")
        let joined = try Self.lines(["mls", "process", "--state", joiner, "--keypackage-store", joinerStore], key: joinerSecret,
                                    stdin: try Self.eventLine(welcome) + chunkLines.reversed().flatMap { $0 })
        XCTAssertEqual(joined.compactMap { $0["type"] as? String }, ["joined"] + Array(repeating: "tree_chunk", count: chunkLines.count))
        XCTAssertEqual((joined.first?["members"] as? [String])?.count, 21)
        let before = try Data(contentsOf: URL(fileURLWithPath: alice))
        let big = try CLI.run(["mls", "send", "--state", alice, "--content", String(repeating: "x", count: 20_000), "--max-event-bytes", "\(bound)"])
        XCTAssertNotEqual(big.status, 0)
        XCTAssertTrue(big.err.contains("maxEventBytes is \(bound)"), big.err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: alice)), before, "the refused message left the state as it was")
    }

    /// `--json` prints only the JSON lines, as before the flag came back; without it, one readable
    /// line per epoch with the same facts (the run is replayable from its seed) and a summary.
    func testSimulateIsReadableByDefaultAndJSONWithTheFlag() throws {
        let json = try CLI.run(["mls", "simulate", "--members", "3", "--json"])
        XCTAssertEqual(json.status, 0, json.err)
        let lines = json.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4, json.out)  // create, two adds, a self-update
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("{\"epoch\":") && $0.hasSuffix("}") }, json.out)

        let text = try CLI.run(["mls", "simulate", "--members", "3"])
        XCTAssertEqual(text.status, 0, text.err)
        let readable = text.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(readable.count, lines.count + 1, text.out)
        XCTAssertFalse(readable.contains { $0.hasPrefix("{") }, text.out)
        for (line, fact) in zip(readable, lines) {
            let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(fact.utf8)) as? [String: Any])
            let head = "epoch \(o["epoch"] as? Int ?? -1)  \(o["action"] as? String ?? "?")  \(o["members"] as? Int ?? -1) members  commit \(o["commit_bytes"] as? Int ?? -1) B"
            XCTAssertTrue(line.hasPrefix(head), "\(line) / \(fact)")
            XCTAssertTrue(line.contains(String((o["fingerprint"] as? String ?? "?").prefix(16))), "\(line) / \(fact)")
        }
        XCTAssertEqual(readable.last, "3 members, 0 removals, seed 1: 4 epochs, every member converged and read every message")
    }
}
