import XCTest
import Foundation
import InviteKitTestSupport

/// The node's group commands as real processes over the real nostr-relay on loopback: an inviter
/// `serve` and joiners, each with its own home. Messages go both ways with `group send` (which
/// hands the message to the home's `serve` when one holds the lock) and `group read`; a used
/// single-use invite and a revoked one are refused; `serve` killed with `kill -9` between the
/// Commit's `OK` and the Welcome still lets the joiner join, exactly once.
final class NodeGroupProcessTests: XCTestCase {
    private var world: CLIRelayWorld!

    override func setUpWithError() throws {
        world = try CLIRelayWorld(prefix: "invitekit-groups")
    }

    override func tearDown() {
        world?.tearDown()
    }

    private func waitFor(_ timeout: TimeInterval = 30, _ condition: () throws -> Bool) rethrows -> Bool {
        try CLIProcesses.waitFor(timeout, condition)
    }

    private func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    /// `serve --new-group` on ada's home: returns the process, its output, the invite and the group id.
    private func serveNewGroup(singleUse: Bool, env: [String: String] = [:]) throws -> (Process, ProcessOutput, url: String, group: String) {
        var args = ["serve", "--home", world.home("ada"), "--new-group", "club", "--interval", "0.3"]
        if singleUse { args.append("--single-use") }
        let (serve, out) = try world.cli.start(args, env: env)
        XCTAssertTrue(waitFor { out.text.contains("invite: ") }, out.text)
        let url = try XCTUnwrap(out.text.components(separatedBy: "invite: ").last?.components(separatedBy: "\n").first)
        let group = try XCTUnwrap(out.text.components(separatedBy: "group ").dropFirst().first?.components(separatedBy: " ").first)
        return (serve, out, url, group)
    }

    /// `init` of each home on the relay; their npubs by name.
    private func initHomes(_ names: [String]) throws -> [String: String] {
        var npubs: [String: String] = [:]
        for name in names {
            let made = try world.cli.run(["init", "--home", world.home(name), "--relay", world.relay.url])
            XCTAssertEqual(made.status, 0, made.output)
            npubs[name] = made.output.split(whereSeparator: { $0 == "\n" || $0 == " " }).first { $0.hasPrefix("npub1") }.map(String.init)
        }
        return npubs
    }

    /// `serve --accept-welcomes` on each home, once its first round published its KeyPackages
    /// (MIP-00 top-up); their outputs.
    private func welcomingServes(_ names: [String]) throws -> [ProcessOutput] {
        let serves = try names.map { try world.cli.start(["serve", "--home", world.home($0), "--interval", "0.3", "--accept-welcomes"]).1 }
        for out in serves { XCTAssertTrue(waitFor(60) { out.text.contains("published") }, out.text) }
        return serves
    }

    /// `group add` with several `--member`s (PROTOCOL §5.11): without a serve on ada's home the
    /// command drives the node itself, fetches both users' KeyPackages (published by their own
    /// serves), commits within the budget, and each user's serve (`--accept-welcomes`: no pending
    /// join) joins from its own Welcome.
    func testGroupAddOfSeveralMembersFromTheCommand() throws {
        let npubs = try initHomes(["ada", "dee", "fay"])
        let group = try world.cli.run(["group", "new", "--home", world.home("ada"), "--name", "club"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let serves = try welcomingServes(["dee", "fay"])

        let added = try world.cli.run(["group", "add", "--home", world.home("ada"), "--group", group,
                                       "--member", try XCTUnwrap(npubs["dee"]), "--member", try XCTUnwrap(npubs["fay"]), "--timeout", "60"])
        XCTAssertEqual(added.status, 0, added.output)
        XCTAssertTrue(added.output.contains("confirmed"), added.output)
        let members = try world.cli.run(["group", "members", "--home", world.home("ada"), "--group", group, "--json"])
        XCTAssertEqual(count("\"npub\"", in: members.output), 3, members.output)
        for out in serves { XCTAssertTrue(waitFor(60) { out.text.contains("joined") }, out.text) }
    }

    /// The same add handed to ada's running `serve`: a multi-member add runs in a task of its own
    /// there (its Commits wait on relays), and the command still gets its answer; a `group send`
    /// handed over right after it is answered too.
    func testGroupAddOfSeveralMembersThroughServe() throws {
        let npubs = try initHomes(["ada", "dee", "fay"])
        let (_, adaOut, _, group) = try serveNewGroup(singleUse: false)
        let serves = try welcomingServes(["dee", "fay"])

        let add = try world.cli.start(["group", "add", "--home", world.home("ada"), "--group", group,
                                       "--member", try XCTUnwrap(npubs["dee"]), "--member", try XCTUnwrap(npubs["fay"]), "--timeout", "60"])
        let sent = try world.cli.run(["group", "send", "--home", world.home("ada"), "--group", group, "--timeout", "60", "while adding"])
        XCTAssertEqual(sent.status, 0, sent.output)
        add.0.waitUntilExit()
        XCTAssertEqual(add.0.terminationStatus, 0, add.1.text)
        XCTAssertTrue(waitFor { add.1.text.contains("confirmed") }, add.1.text)
        // The two commands start together: serve takes them in one look at the inbox or in two.
        XCTAssertTrue(adaOut.text.contains("took 1 request(s) from the inbox") || adaOut.text.contains("took 2 request(s) from the inbox"), adaOut.text)
        let members = try world.cli.run(["group", "members", "--home", world.home("ada"), "--group", group, "--json"])
        XCTAssertEqual(count("\"npub\"", in: members.output), 3, members.output)
        for out in serves { XCTAssertTrue(waitFor(60) { out.text.contains("joined") }, out.text) }
    }

    func testMessagesBothWaysSingleUseRefusedAndRevokedInviteRefused() throws {
        for name in ["ada", "dee", "eve", "fay"] { XCTAssertEqual(try world.cli.run(["init", "--home", world.home(name), "--relay", world.relay.url]).status, 0) }
        let (_, adaOut, url, group) = try serveNewGroup(singleUse: true)

        // dee asks, then her own serve completes the join and keeps the group for her sends.
        let asked = try world.cli.run(["join", "--home", world.home("dee"), url, "--no-wait", "--json"])
        XCTAssertEqual(asked.status, 0, asked.output)
        // The Welcome may already have come while the request was published.
        XCTAssertTrue(asked.output.contains("\"requested\"") || asked.output.contains("\"joined\""), asked.output)
        let (_, deeOut) = try world.cli.start(["serve", "--home", world.home("dee"), "--interval", "0.3"])
        XCTAssertTrue(try waitFor(45) { try world.cli.run(["group", "list", "--home", world.home("dee")]).output.contains(group) }, deeOut.text + adaOut.text)

        let listed = try world.cli.run(["group", "list", "--home", world.home("dee"), "--json"])
        XCTAssertEqual(listed.status, 0, listed.output)
        XCTAssertTrue(listed.output.contains(group), listed.output)

        let fromAda = try world.cli.run(["group", "send", "--home", world.home("ada"), "--group", group, "hello dee"])
        XCTAssertEqual(fromAda.status, 0, fromAda.output)
        XCTAssertTrue(fromAda.output.hasPrefix("acked "), fromAda.output)
        let fromDee = try world.cli.run(["group", "send", "--home", world.home("dee"), "--group", group, "hello ada"])
        XCTAssertEqual(fromDee.status, 0, fromDee.output)
        XCTAssertTrue(fromDee.output.hasPrefix("acked "), fromDee.output)

        XCTAssertTrue(try waitFor { try world.cli.run(["group", "read", "--home", world.home("dee"), "--group", group]).output.contains("hello dee") })
        XCTAssertTrue(try waitFor { try world.cli.run(["group", "read", "--home", world.home("ada"), "--group", group]).output.contains("hello ada") })
        let adaHistory = try world.cli.run(["group", "read", "--home", world.home("ada"), "--group", group, "--json"]).output
        XCTAssertEqual(count("hello dee", in: adaHistory), 1, adaHistory)
        XCTAssertEqual(count("hello ada", in: adaHistory), 1, adaHistory)
        XCTAssertTrue(adaHistory.contains("\"status\":\"acked\""), adaHistory)
        XCTAssertTrue(adaHistory.contains("\"status\":\"received\""), adaHistory)
        // In (created_at, local sequence) order: within one second ada's message comes before
        // dee's reply, whatever their ids (docs/storage.md §6).
        let lines = adaHistory.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, adaHistory)
        XCTAssertTrue(lines.first?.contains("hello dee") == true, adaHistory)

        // The same single-use invite again.
        let eve = try world.cli.run(["join", "--home", world.home("eve"), url, "--timeout", "30"])
        XCTAssertEqual(eve.status, 3, eve.output)
        XCTAssertTrue(eve.output.contains("This invite was already used"), eve.output)

        // A reusable invite, revoked through the running serve, is refused.
        let made = try world.cli.run(["invite", "create", "--home", world.home("ada"), "--group", group])
        XCTAssertEqual(made.status, 0, made.output)
        let reusable = made.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let revoked = try world.cli.run(["invite", "revoke", "--home", world.home("ada"), "--group", group])
        XCTAssertEqual(revoked.status, 0, revoked.output)
        let fay = try world.cli.run(["join", "--home", world.home("fay"), reusable, "--timeout", "30"])
        XCTAssertEqual(fay.status, 3, fay.output)
        XCTAssertFalse(adaOut.text.contains("relay error"), adaOut.text)
    }

    /// A Whistle code through the running serve: the join waits until `invite approve`, handed
    /// to serve, commits the add; the second approval and a single-use Whistle code are refused.
    func testWhistleJoinWaitsForApproveThroughServe() throws {
        for name in ["ada", "dee"] { XCTAssertEqual(try world.cli.run(["init", "--home", world.home(name), "--relay", world.relay.url]).status, 0) }
        let made = try world.cli.run(["group", "new", "--home", world.home("ada"), "--name", "club"])
        XCTAssertEqual(made.status, 0, made.output)
        let group = made.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let refused = try world.cli.run(["invite", "create", "--home", world.home("ada"), "--group", group, "--format", "whistle", "--single-use"])
        XCTAssertEqual(refused.status, 64, refused.output)
        XCTAssertTrue(refused.output.contains("cannot be single use"), refused.output)

        let (_, adaOut) = try world.cli.start(["serve", "--home", world.home("ada"), "--interval", "0.3"])
        XCTAssertTrue(waitFor { adaOut.text.contains("serving on") }, adaOut.text)
        let created = try world.cli.run(["invite", "create", "--home", world.home("ada"), "--group", group, "--format", "whistle"])
        XCTAssertEqual(created.status, 0, created.output)
        let url = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(url.hasPrefix("whistle://invite/"), url)

        let (join, joinOut) = try world.cli.start(["join", "--home", world.home("dee"), url, "--timeout", "90"])
        XCTAssertTrue(waitFor(45) { adaOut.text.contains("waiting for approval (invitekit invite approve --group \(group) --member npub1") },
                      adaOut.text)
        let listed = try world.cli.run(["invite", "requests", "--home", world.home("ada"), "--group", group, "--json"])
        XCTAssertEqual(listed.status, 0, listed.output)
        let npub = try XCTUnwrap(listed.output.components(separatedBy: "\"npub\":\"").dropFirst().first?.components(separatedBy: "\"").first)
        XCTAssertTrue(npub.hasPrefix("npub1"), listed.output)

        let approved = try world.cli.run(["invite", "approve", "--home", world.home("ada"), "--group", group, "--member", npub])
        XCTAssertEqual(approved.status, 0, approved.output)
        XCTAssertTrue(approved.output.contains("confirmed; epoch 1"), approved.output)
        XCTAssertTrue(RelayProcess.waitForExit(join, timeout: 60), joinOut.text)
        XCTAssertEqual(join.terminationStatus, 0, joinOut.text)
        XCTAssertTrue(joinOut.text.contains("joined group \(group)"), joinOut.text)

        let twice = try world.cli.run(["invite", "approve", "--home", world.home("ada"), "--group", group, "--member", npub])
        XCTAssertNotEqual(twice.status, 0, twice.output)
        XCTAssertTrue(twice.output.contains("no_pending_approval"), twice.output)
        let none = try world.cli.run(["invite", "requests", "--home", world.home("ada"), "--group", group, "--json"])
        XCTAssertFalse(none.output.contains("npub1"), none.output)
    }

    func testKillAfterCommitAcknowledgedBeforeWelcomeJoinsOnce() throws {
        for name in ["ada", "dee", "eve"] { XCTAssertEqual(try world.cli.run(["init", "--home", world.home(name), "--relay", world.relay.url]).status, 0) }
        let (serve, _, url, group) = try serveNewGroup(singleUse: true, env: ["INVITEKIT_FAILPOINT": "node.flush.before_welcome"])
        let (join, joinOut) = try world.cli.start(["join", "--home", world.home("dee"), url, "--timeout", "60"])
        XCTAssertTrue(RelayProcess.waitForExit(serve, timeout: 45), "serve did not reach the fail point")
        XCTAssertEqual(serve.terminationReason, .uncaughtSignal)
        XCTAssertEqual(serve.terminationStatus, SIGKILL)

        let (_, again) = try world.cli.start(["serve", "--home", world.home("ada"), "--interval", "0.3"])
        XCTAssertTrue(RelayProcess.waitForExit(join, timeout: 60), joinOut.text)
        XCTAssertEqual(join.terminationStatus, 0, joinOut.text)
        XCTAssertEqual(count("joined group", in: joinOut.text), 1, joinOut.text)
        XCTAssertTrue(joinOut.text.contains(group), joinOut.text)
        // The restarted serve decided nothing again and added nobody twice. The marker that it
        // went through its stored gift wraps (dee's request among them): eve's request with the
        // used invite, published after them, comes behind them on the same subscription, and its
        // refusal is the one join request this serve decides.
        let eve = try world.cli.run(["join", "--home", world.home("eve"), url, "--timeout", "30"])
        XCTAssertEqual(eve.status, 3, eve.output)
        XCTAssertTrue(waitFor { again.text.contains("join request") }, again.text)
        XCTAssertEqual(count("join request", in: again.text), 1, again.text)
        XCTAssertTrue(again.text.contains(": rejected:"), again.text)
        XCTAssertFalse(again.text.contains("added "), again.text)
        let list = try world.cli.run(["group", "list", "--home", world.home("dee")])
        XCTAssertEqual(count(group, in: list.output), 1, list.output)
    }

    func testKillAfterCommitPublishedBeforeItsOKJoinsOnce() throws {
        for name in ["ada", "dee"] { XCTAssertEqual(try world.cli.run(["init", "--home", world.home(name), "--relay", world.relay.url]).status, 0) }
        let (serve, _, url, _) = try serveNewGroup(singleUse: true, env: ["INVITEKIT_FAILPOINT": "node.flush.before_commit_ok"])
        let (join, joinOut) = try world.cli.start(["join", "--home", world.home("dee"), url, "--timeout", "40"])
        XCTAssertTrue(RelayProcess.waitForExit(serve, timeout: 45), "serve did not reach the fail point")
        XCTAssertEqual(serve.terminationStatus, SIGKILL)
        _ = try world.cli.start(["serve", "--home", world.home("ada"), "--interval", "0.3"])
        XCTAssertTrue(RelayProcess.waitForExit(join, timeout: 60), joinOut.text)
        XCTAssertEqual(join.terminationStatus, 0, joinOut.text)
        XCTAssertEqual(count("joined group", in: joinOut.text), 1, joinOut.text)
    }

    func testGroupFromCommandsHistoryMembersAndRevocationSurviveKill9() throws {
        for name in ["ada", "dee", "fay"] { XCTAssertEqual(try world.cli.run(["init", "--home", world.home(name), "--relay", world.relay.url]).status, 0) }
        let made = try world.cli.run(["group", "new", "--home", world.home("ada"), "--name", "club"])
        XCTAssertEqual(made.status, 0, made.output)
        let group = made.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let url = try world.cli.run(["invite", "create", "--home", world.home("ada"), "--group", group, "--single-use", "--expires-in", "600"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let reusable = try world.cli.run(["invite", "create", "--home", world.home("ada"), "--group", group]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(url.hasPrefix("http") && reusable.hasPrefix("http"), url + reusable)

        var (serve, _) = try world.cli.start(["serve", "--home", world.home("ada"), "--interval", "0.3"])
        let dee = try world.cli.run(["join", "--home", world.home("dee"), url, "--timeout", "45"])
        XCTAssertEqual(dee.status, 0, dee.output)
        let (_, deeServe) = try world.cli.start(["serve", "--home", world.home("dee"), "--interval", "0.3"])
        XCTAssertTrue(waitFor { deeServe.text.contains("serving on") }, deeServe.text)

        let members = try world.cli.run(["group", "members", "--home", world.home("ada"), "--group", group, "--json"])
        XCTAssertEqual(members.status, 0, members.output)
        XCTAssertEqual(count("\"npub\"", in: members.output), 2, members.output)
        XCTAssertEqual(count("\"admin\":\"true\"", in: members.output), 1, members.output)
        XCTAssertTrue(members.output.contains("\"epoch\":\"1\""), members.output)

        XCTAssertEqual(try world.cli.run(["group", "send", "--home", world.home("dee"), "--group", group, "one"]).status, 0)
        XCTAssertEqual(try world.cli.run(["group", "send", "--home", world.home("ada"), "--group", group, "two"]).status, 0)
        XCTAssertTrue(try waitFor { try world.cli.run(["group", "read", "--home", world.home("ada"), "--group", group]).output.contains("one") })
        XCTAssertTrue(try waitFor { try world.cli.run(["group", "read", "--home", world.home("dee"), "--group", group]).output.contains("two") })
        XCTAssertEqual(try world.cli.run(["invite", "revoke", "--home", world.home("ada"), "--group", group]).status, 0)
        let before = try world.cli.run(["group", "read", "--home", world.home("ada"), "--group", group, "--json"]).output

        // kill -9, restart: the subscription brings every stored kind-445 event again.
        kill(serve.processIdentifier, SIGKILL)
        XCTAssertTrue(RelayProcess.waitForExit(serve, timeout: 10))
        let restarted: ProcessOutput
        (serve, restarted) = try world.cli.start(["serve", "--home", world.home("ada"), "--interval", "0.3"])
        XCTAssertTrue(waitFor { restarted.text.contains("serving on") }, restarted.text)
        // The markers that it went through every stored kind-445 event: two messages from dee.
        // The first shows its group subscription is open; the second, sent after that, comes
        // behind every stored event on it.
        for marker in ["marker 1", "marker 2"] {
            XCTAssertEqual(try world.cli.run(["group", "send", "--home", world.home("dee"), "--group", group, marker]).status, 0)
            XCTAssertTrue(try waitFor { try world.cli.run(["group", "read", "--home", world.home("ada"), "--group", group]).output.contains(marker) },
                          restarted.text)
        }
        let after = try world.cli.run(["group", "read", "--home", world.home("ada"), "--group", group, "--json"]).output
            .components(separatedBy: "\n").filter { !$0.contains("\"content\":\"marker ") }.joined(separator: "\n")
        XCTAssertEqual(after, before)
        XCTAssertEqual(count("\"content\":\"one\"", in: after), 1, after)
        XCTAssertFalse(restarted.text.contains("published"), restarted.text)
        // The revoked invite is refused after the restart. Its request comes behind the stored
        // gift wraps (dee's request among them), so its refusal, the one join request this serve
        // decides, shows they were not decided again.
        let fay = try world.cli.run(["join", "--home", world.home("fay"), reusable, "--timeout", "30"])
        XCTAssertEqual(fay.status, 3, fay.output)
        XCTAssertTrue(waitFor { restarted.text.contains("join request") }, restarted.text)
        XCTAssertEqual(count("join request", in: restarted.text), 1, restarted.text)

        // The restored group still sends, and dee reads it.
        let three = try world.cli.run(["group", "send", "--home", world.home("ada"), "--group", group, "three"])
        XCTAssertEqual(three.status, 0, three.output)
        XCTAssertTrue(three.output.hasPrefix("acked "), three.output)
        XCTAssertTrue(try waitFor { try world.cli.run(["group", "read", "--home", world.home("dee"), "--group", group]).output.contains("three") })
        // A message's text is untrusted: `group read` escapes control characters on a terminal line.
        XCTAssertEqual(try world.cli.run(["group", "send", "--home", world.home("ada"), "--group", group, "red\u{1B}[31m alert\u{07}"]).status, 0)
        XCTAssertTrue(try waitFor { try world.cli.run(["group", "read", "--home", world.home("dee"), "--group", group]).output.contains("red\\u{1B}[31m alert\\u{7}") })
        XCTAssertFalse(try world.cli.run(["group", "read", "--home", world.home("dee"), "--group", group]).output.contains("\u{1B}"))

        // Membership Commits through the running serves (both homes are locked): dee rotates
        // her keys, ada applies it from the relay; then ada removes dee.
        let update = try world.cli.run(["group", "update", "--home", world.home("dee"), "--group", group])
        XCTAssertEqual(update.status, 0, update.output)
        XCTAssertTrue(update.output.contains("confirmed; epoch 2"), update.output)
        XCTAssertTrue(try waitFor { try world.cli.run(["group", "members", "--home", world.home("ada"), "--group", group, "--json"]).output.contains("\"epoch\":\"2\"") })
        let deeNpub = try XCTUnwrap(world.cli.run(["id", "--home", world.home("dee"), "--json"]).output
            .components(separatedBy: "\"npub\":\"").dropFirst().first?.components(separatedBy: "\"").first)
        // ada's serve dies (kill -9 at a fail point) after the relay stored the removal and
        // before its OK was recorded: nothing is applied; the restarted serve re-sends it, and the
        // OK that comes back applies it once. The waiting `group remove` then reports it.
        kill(serve.processIdentifier, SIGKILL)
        XCTAssertTrue(RelayProcess.waitForExit(serve, timeout: 10))
        let armed: ProcessOutput
        (serve, armed) = try world.cli.start(["serve", "--home", world.home("ada"), "--interval", "0.3"], env: ["INVITEKIT_FAILPOINT": "node.flush.before_commit_ok"])
        // The removal must reach this serve (not run on its own node before serve holds the home).
        XCTAssertTrue(waitFor { armed.text.contains("serving on") }, armed.text)
        let (removing, removingOut) = try world.cli.start(["group", "remove", "--home", world.home("ada"), "--group", group, "--member", deeNpub, "--json",
                                                     "--timeout", "60"])
        XCTAssertTrue(RelayProcess.waitForExit(serve, timeout: 30), "serve did not reach the fail point")
        XCTAssertEqual(serve.terminationStatus, SIGKILL)
        let notYet = try world.cli.run(["group", "members", "--home", world.home("ada"), "--group", group, "--json"]).output
        XCTAssertEqual(count("\"npub\"", in: notYet), 2, "not applied before the OK: \(notYet)")
        (serve, _) = try world.cli.start(["serve", "--home", world.home("ada"), "--interval", "0.3"])
        XCTAssertTrue(RelayProcess.waitForExit(removing, timeout: 60), removingOut.text)
        XCTAssertEqual(removing.terminationStatus, 0, removingOut.text)
        XCTAssertTrue(removingOut.text.contains("\"status\":\"confirmed\""), removingOut.text)
        let left = try world.cli.run(["group", "members", "--home", world.home("ada"), "--group", group, "--json"]).output
        XCTAssertEqual(count("\"npub\"", in: left), 1, left)
        XCTAssertTrue(left.contains("\"epoch\":\"3\""), left)
        XCTAssertTrue(try waitFor { try world.cli.run(["group", "send", "--home", world.home("dee"), "--group", group, "--timeout", "5", "gone?"]).status != 0 },
                      "a removed member cannot send")
        let again = try world.cli.run(["group", "remove", "--home", world.home("ada"), "--group", group, "--member", deeNpub])
        XCTAssertEqual(again.status, 1, again.output)
        XCTAssertTrue(again.output.contains("not_a_member"), again.output)
    }
}
