import Foundation
import XCTest
import InviteKitTestSupport

/// The node commands (init, id, doctor, group new|list|members|read, invite …) under the rows of
/// issue 20's table, through the built binary: exit status, stdout, stderr, and the files left.
final class NodeCLIHostileInputTests: XCTestCase {
    private var tmp: TemporaryDirectory!
    var root: URL { tmp.url }

    override func setUpWithError() throws { tmp = TemporaryDirectory(prefix: "ik-cli") }
    override func tearDownWithError() throws { tmp = nil }

    func path(_ name: String) -> String { root.appendingPathComponent(name).path }

    func initHome(_ home: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try CLI.run(["init", "--home", home, "--relay", "wss://relay.example.com"])
        XCTAssertEqual(r.status, 0, r.err, file: file, line: line)
        return r.out.split(separator: "\n").first { $0.hasPrefix("npub") }.map(String.init) ?? ""
    }

    func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    // Row 1 (node commands): trap values are usage errors, never a crash.
    func testNodeNumericOptionsRefuseTrapValues() throws {
        let home = path("h")
        for args in [["group", "read", "--group", "g", "--follow", "--interval"], ["serve", "--interval"], ["serve", "--duration"],
                     ["join", "--resume", "--timeout"], ["group", "send", "--group", "g", "x", "--timeout"]] {
            for v in ["nan", "inf", "1e300", "-1"] {
                let r = try CLI.run(args + [v, "--home", home])
                XCTAssertEqual(r.status, 64, "\(args) \(v): \(r.err)")
                XCTAssertNotEqual(r.status, 132)
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: home), "a refused command created the home")
    }

    // D10 (issue 31): an inbox that is not a directory is named as the home's inbox, never as
    // `--store`, an option of another command the user never gave.
    func testServeNamesTheHomesInboxWhenItIsNotADirectory() throws {
        let home = path("h")
        _ = try initHome(home)
        XCTAssertTrue(FileManager.default.createFile(atPath: home + "/inbox", contents: Data("x".utf8)))
        let r = try CLI.run(["serve", "--home", home, "--duration", "1"])
        XCTAssertEqual(r.status, 1, r.err)
        XCTAssertFalse(r.err.contains("--store"), r.err)
        XCTAssertTrue(r.err.contains("the home's inbox \(home)/inbox: not a directory"), r.err)
        XCTAssertEqual(contents(home + "/inbox"), "x", "the file was changed")
    }

    // D9 (issue 31): a relay that refuses every connection is reported once, not once per attempt.
    func testServeReportsAnUnreachableRelayOnce() throws {
        let home = path("h")
        XCTAssertEqual(try CLI.run(["init", "--home", home, "--relay", "ws://127.0.0.1:1"]).status, 0)
        let r = try CLI.run(["serve", "--home", home, "--duration", "3", "--json"])
        let reports = r.out.split(separator: "\n").filter { $0.contains("\"event\":\"relay\"") }
        XCTAssertEqual(reports.count, 1, r.out + r.err)
        XCTAssertTrue(reports.first?.contains("\"status\":\"reconnecting\"") == true, r.out)
    }

    // Row 2: a symlinked lock is refused; the file it points to keeps its bytes.
    func testInitRefusesASymlinkedLockAndLeavesItsTargetAlone() throws {
        let home = path("h")
        XCTAssertEqual(mkdir(home, 0o700), 0)
        let victim = path("victim")
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        XCTAssertEqual(symlink(victim, home + "/lock"), 0)
        let r = try CLI.run(["init", "--home", home])
        XCTAssertEqual(r.status, 1, r.err)
        XCTAssertTrue(r.err.contains("symbolic link"), r.err)
        XCTAssertEqual(contents(victim), "precious\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/identity.key"))
    }

    // Row 5: a shared or group-writable directory is refused with the fix, and keeps its mode.
    func testInitRefusesASharedDirectoryWithoutChmoddingIt() throws {
        let shared = path("shared")
        XCTAssertEqual(mkdir(shared, 0o700), 0)
        XCTAssertEqual(chmod(shared, 0o1777), 0)
        let r = try CLI.run(["init", "--home", shared])
        XCTAssertEqual(r.status, 1, r.err)
        XCTAssertTrue(r.err.contains("writable by group or others") && r.err.contains("chmod 700"), r.err)
        var st = stat()
        XCTAssertEqual(stat(shared, &st), 0)
        XCTAssertEqual(st.st_mode & 0o7777, 0o1777, "init changed the directory's mode")
        XCTAssertFalse(FileManager.default.fileExists(atPath: shared + "/identity.key"))
    }

    // Row 6: relay URLs are checked at init; control characters in the home are escaped.
    func testInitValidatesRelayURLsAndEscapesTheHome() throws {
        let home = path("h")
        for bad in ["not a url", "file:///etc/passwd", "http://relay.example.com", "wss://", "ws://:80", "wss://u:p@relay.example.com",
                    "wss://relay.example.com/\u{1B}[2J", "wss://" + String(repeating: "a", count: 600) + ".example"] {
            let r = try CLI.run(["init", "--home", home, "--relay", bad])
            XCTAssertEqual(r.status, 64, "\(bad): \(r.err)")
            XCTAssertTrue(r.err.contains("--relay"), r.err)
            XCTAssertFalse(r.err.contains("\u{1B}"), "the error echoed a control character")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: home), "a refused init created the home")
        let odd = path("esc\u{1B}[31mhome")
        let r = try CLI.run(["init", "--home", odd, "--relay", "wss://relay.example.com"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertFalse(r.out.contains("\u{1B}"), r.out)
        XCTAssertTrue(r.out.contains("\\u{1B}"), r.out)
    }

    // Row 6: `serve` with no usable relay exits non-zero and says why (a home written before
    // relay URLs were checked may hold one nothing can connect to).
    func testServeWithoutAUsableRelayExitsAndSaysWhy() throws {
        let home = path("h")
        _ = try initHome(home)
        let db = (home as NSString).appendingPathComponent("invitekit.sqlite")
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE relays SET url='file:///etc/passwd'\"); c.commit()", db]
        try python.run()
        python.waitUntilExit()
        XCTAssertEqual(python.terminationStatus, 0)
        let r = try CLI.run(["serve", "--home", home, "--duration", "5"])
        XCTAssertNotEqual(r.status, 0, r.out)
        XCTAssertTrue(r.err.contains("no usable relay") && r.err.contains("file:///etc/passwd"), r.err)
        XCTAssertFalse(r.out.contains("serving on"), r.out)
    }

    // Row 7: a lost database or key names the file and the way out; `group new` does not start over.
    func testMissingDatabaseHasAWayOut() throws {
        let home = path("h")
        let npub = try initHome(home)
        for suffix in ["", "-wal", "-shm"] { unlink(home + "/invitekit.sqlite" + suffix) }
        for args in [["id"], ["group", "list"], ["group", "new", "--name", "x"], ["group", "members", "--group", "g"], ["init"]] {
            let r = try CLI.run(args + ["--home", home])
            XCTAssertEqual(r.status, 1, "\(args): \(r.err)")
            XCTAssertTrue(r.err.contains("invitekit.sqlite is missing") && r.err.contains("--force-new-identity") && r.err.contains("backup"),
                          "\(args): \(r.err)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/invitekit.sqlite"), "\(args) created an empty database")
        }
        let doctor = try CLI.run(["doctor", "--home", home])
        XCTAssertEqual(doctor.status, 1, doctor.out)
        XCTAssertTrue(doctor.out.contains("invitekit.sqlite is missing"), doctor.out)

        let fresh = try CLI.run(["init", "--home", home, "--force-new-identity"])
        XCTAssertEqual(fresh.status, 0, fresh.err)
        XCTAssertTrue(fresh.out.contains("identity.key.replaced-"), fresh.out)
        XCTAssertFalse(fresh.out.contains(npub.dropFirst(8)), "the old identity came back")
        XCTAssertEqual(try CLI.run(["id", "--home", home]).status, 0)
    }

    func testMissingKeyHasAWayOut() throws {
        let home = path("h")
        _ = try initHome(home)
        unlink(home + "/identity.key")
        for args in [["id"], ["init"], ["group", "read", "--group", "g"], ["invite", "requests", "--group", "g"]] {
            let r = try CLI.run(args + ["--home", home])
            XCTAssertEqual(r.status, 1, "\(args): \(r.err)")
            XCTAssertTrue(r.err.contains("identity.key is missing") && r.err.contains("--force-new-identity"), "\(args): \(r.err)")
        }
        let fresh = try CLI.run(["init", "--home", home, "--force-new-identity"])
        XCTAssertEqual(fresh.status, 0, fresh.err)
        XCTAssertTrue(fresh.out.contains("invitekit.sqlite.replaced-"), fresh.out)
        XCTAssertEqual(try CLI.run(["doctor", "--home", home]).status, 0)
    }

    func testDoctorReportsAHealthyHome() throws {
        let home = path("h")
        _ = try initHome(home)
        let r = try CLI.run(["doctor", "--home", home, "--json"])
        XCTAssertEqual(r.status, 0, r.out + r.err)
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        XCTAssertEqual(o["integrity"] as? [String], ["ok"])
        XCTAssertEqual(o["queued_deliveries"] as? Int, 2, "init queues the account's kinds 10002 and 10050 (PROTOCOL §5.12.6)")
        XCTAssertEqual(o["lock"] as? String, "free")
        XCTAssertEqual(o["problems"] as? [String], [])
        XCTAssertGreaterThan(o["schema_version"] as? Int ?? 0, 0)
        XCTAssertEqual(chmod(home + "/identity.key", 0o644), 0)
        let exposed = try CLI.run(["doctor", "--home", home])
        XCTAssertEqual(exposed.status, 1)
        XCTAssertTrue(exposed.out.contains("identity.key  644  PROBLEM"), exposed.out)
    }

    // Row 8: a read-only home serves the read commands.
    func testReadOnlyHomeServesReads() throws {
        guard geteuid() == 0 else { throw XCTSkip("a read-only mount needs root; this user is uid \(geteuid())") }
        let mnt = path("mnt")
        XCTAssertEqual(mkdir(mnt, 0o700), 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/mount")
        process.arguments = ["-t", "tmpfs", "-o", "size=8m,mode=0700", "tmpfs", mnt]
        try process.run(); process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw XCTSkip("mount -t tmpfs failed: no tmpfs in this sandbox") }
        defer {
            let u = Process(); u.executableURL = URL(fileURLWithPath: "/bin/umount"); u.arguments = ["-l", mnt]
            try? u.run(); u.waitUntilExit()
        }
        let home = mnt + "/home"
        let npub = try initHome(home)
        let ro = Process()
        ro.executableURL = URL(fileURLWithPath: "/bin/mount")
        ro.arguments = ["-o", "remount,ro", mnt]
        try ro.run(); ro.waitUntilExit()
        XCTAssertEqual(ro.terminationStatus, 0)
        let id = try CLI.run(["id", "--home", home])
        XCTAssertEqual(id.status, 0, id.err)
        XCTAssertTrue(id.out.contains(npub), id.out)
        XCTAssertEqual(try CLI.run(["group", "list", "--home", home]).status, 0)
        XCTAssertEqual(try CLI.run(["doctor", "--home", home]).status, 0)
        let write = try CLI.run(["group", "new", "--name", "x", "--home", home])
        XCTAssertEqual(write.status, 1)
        XCTAssertTrue(write.err.contains("read-only"), write.err)
    }

    func testUnknownGroupsAndEmptyHomesAreOneLine() throws {
        let empty = path("empty")
        for args in [["id"], ["group", "list"], ["group", "new", "--name", "x"], ["group", "read", "--group", "g"], ["invite", "create", "--group", "g"]] {
            let r = try CLI.run(args + ["--home", empty])
            XCTAssertEqual(r.status, 1, "\(args): \(r.err)")
            XCTAssertTrue(r.err.contains("no identity") && r.err.contains("invitekit init"), "\(args): \(r.err)")
            XCTAssertEqual(r.err.split(separator: "\n").count, 1)
        }
        let home = path("h")
        _ = try initHome(home)
        for args in [["group", "members", "--group", "nope"], ["group", "read", "--group", "\u{1B}]0;x\u{7}"]] {
            let r = try CLI.run(args + ["--home", home])
            XCTAssertEqual(r.status, 1, "\(args): \(r.err)")
            XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
            XCTAssertFalse(r.err.contains("\u{1B}"), r.err)
        }
    }
}
