import Foundation
import XCTest
import InviteKitCrypto
import InviteKitNostr
import InviteKitTestSupport

/// `--state FILE` against outsiders, concurrency and failing disks (issue 18, issue 20 row 3;
/// PROTOCOL.md §5.10, docs/cli.md §4): junk kind-445 events leave the state bounded, two writers never lose an
/// update, a failed write leaves the file as it was, and older or newer formats are migrated or
/// refused, never misread.
final class GroupStateFileHostileTests: XCTestCase {
    typealias T = MLSCLITests

    struct Pair {
        let tmp: TemporaryDirectory
        var dir: URL { tmp.url }
        let alice: String
        let bob: String
        let groupID: String
    }

    /// Alice creates a group and adds Bob; both state files at epoch 1.
    func pair() throws -> Pair {
        let tmp = TemporaryDirectory(prefix: "ik-cli")
        let dir = tmp.url
        let alice = dir.appendingPathComponent("alice.group").path, bob = dir.appendingPathComponent("bob.group").path
        let store = dir.appendingPathComponent("bob-keypackages").path
        let created = try T.lines(["mls", "create", "--state", alice, "--name", "g", "--relay", T.relay], key: T.aliceKey)
        let kp = try CLI.run(["keypackage", "create", "--relay", T.relay, "--store", store], env: ["INVITEKIT_SECRET_KEY": T.bobKey])
        XCTAssertEqual(kp.status, 0, kp.err)
        _ = try T.lines(["mls", "add", "--state", alice], stdin: kp.outBytes)
        let confirmed = try T.lines(["mls", "confirm", "--state", alice, "--acked-by", T.relay], key: T.aliceKey)
        let welcome = try XCTUnwrap(confirmed.first { $0["type"] as? String == "welcome" })
        let joined = try T.lines(["mls", "process", "--state", bob, "--keypackage-store", store], key: T.bobKey, stdin: try T.eventLine(welcome))
        XCTAssertEqual(joined.first?["type"] as? String, "joined")
        return Pair(tmp: tmp, alice: alice, bob: bob, groupID: try XCTUnwrap(created.first?["nostr_group_id"] as? String))
    }

    /// Signed kind-445 events from outsiders with `contentBytes` of random base64, one per line.
    func junk(_ count: Int, contentBytes: Int, groupID: String) -> [UInt8] {
        var out: [UInt8] = []
        let now = Int64(Date().timeIntervalSince1970)
        for _ in 0..<count {
            let content = Base64.encode(SystemRandom().bytes(contentBytes / 4 * 3))
            let e = TestEvents.note(Secp256k1.PrivateKey(), content, kind: 445, tags: [["h", groupID]], createdAt: now)
            out += e.jsonBytes + [0x0a]
        }
        return out
    }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    func types(_ lines: [[String: Any]]) -> [String: Int] {
        var out: [String: Int] = [:]
        for l in lines { out[l["type"] as? String ?? "?", default: 0] += 1 }
        return out
    }

    /// 70 junk events of 4 MB and 520 of 64 KB (issue 18's probe) into `group process`: the big
    /// ones are refused for their size and change nothing; the others wait in the bounded buffer,
    /// and the next real message reads.
    func testOutsiderFloodsLeaveTheStateBounded() throws {
        let p = try pair()
        defer { withExtendedLifetime(p) {} }
        let initial = try bytes(p.bob)

        for _ in 0..<5 {  // 5 × 14 = 70 events of 4 MB; each batch stays under stdin's 64 MiB
            let out = try T.lines(["mls", "process", "--state", p.bob], key: T.bobKey, stdin: junk(14, contentBytes: 4_000_000, groupID: p.groupID))
            XCTAssertEqual(out.count, 14)
            XCTAssertTrue(out.allSatisfy { $0["type"] as? String == "rejected" && $0["code"] as? String == "too_large" }, "\(out.prefix(1))")
        }
        XCTAssertEqual(try bytes(p.bob), initial, "refused events change nothing")

        var evicted = 0
        for _ in 0..<2 {  // 520 events of 64 KB
            let out = try T.lines(["mls", "process", "--state", p.bob], key: T.bobKey, stdin: junk(260, contentBytes: 65_536, groupID: p.groupID))
            let t = types(out)
            XCTAssertEqual(t["buffered"], 260, "\(t)")
            evicted += t["evicted"] ?? 0
        }
        let size = try bytes(p.bob).count
        XCTAssertLessThanOrEqual(size, initial.count + 1024 * 1024 + 16 * 1024, "the buffer's bound holds the file")
        XCTAssertGreaterThanOrEqual(evicted, 520 - 16, "all but what 1 MiB holds were evicted")

        let message = try T.lines(["mls", "send", "--state", p.alice, "--content", "after the flood"])
        let read = try T.lines(["mls", "process", "--state", p.bob], key: T.bobKey, stdin: try T.eventLine(message[0]))
        XCTAssertEqual(read.map { $0["type"] as? String }, ["message"])
        XCTAssertEqual(read.first?["content"] as? String, "after the flood")
        XCTAssertLessThanOrEqual(try bytes(p.bob).count, size + 1024, "reading a message does not grow the buffer")
    }

    /// Two `group send` on one state at once, 20 times: every one of the 40 messages reads at the
    /// other member (without the lock, one writer's ratchet step was lost and its message refused
    /// as `generation already used`).
    func testConcurrentSendsNeverLoseAnUpdate() throws {
        let p = try pair()
        defer { withExtendedLifetime(p) {} }
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var runs: [CLI.Run] = []
            func add(_ r: CLI.Run) { lock.lock(); runs.append(r); lock.unlock() }
        }
        let results = Results()
        for round in 0..<20 {
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                if let r = try? CLI.run(["mls", "send", "--state", p.alice, "--content", "m\(round)-\(i)"]) { results.add(r) }
            }
        }
        XCTAssertEqual(results.runs.count, 40)
        var stdin: [UInt8] = []
        for r in results.runs {
            XCTAssertEqual(r.status, 0, r.err)
            stdin += r.outBytes
        }
        let events = try stdin.split(separator: 0x0a).map { l -> [UInt8] in
            let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(l)) as? [String: Any])
            return try T.eventLine(o)
        }
        let read = try T.lines(["mls", "process", "--state", p.bob], key: T.bobKey, stdin: events.flatMap { $0 })
        XCTAssertEqual(types(read), ["message": 40], "\(read.filter { $0["type"] as? String != "message" }.prefix(2))")
        XCTAssertEqual(Set(read.compactMap { $0["content"] as? String }).count, 40)
    }

    /// A command that cannot get the lock within `--lock-wait` fails with exit 75 naming the
    /// lock, and changes nothing; once the lock is free it runs.
    func testABusyStateFailsWithinTheBoundedWait() throws {
        let p = try pair()
        defer { withExtendedLifetime(p) {} }
        let before = try bytes(p.alice)
        let fd = open(p.alice + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(flock(fd, LOCK_EX), 0)
        let busy = try CLI.run(["mls", "send", "--state", p.alice, "--content", "x", "--lock-wait", "0.2"])
        XCTAssertEqual(busy.status, 75, busy.err)
        XCTAssertTrue(busy.err.contains("in use") && busy.err.contains(".lock"), busy.err)
        XCTAssertEqual(busy.out, "")
        XCTAssertEqual(try bytes(p.alice), before)
        close(fd)
        let free = try CLI.run(["mls", "send", "--state", p.alice, "--content", "x", "--lock-wait", "0.2"])
        XCTAssertEqual(free.status, 0, free.err)
        for bad in ["nan", "-1", "inf", "601"] {
            XCTAssertEqual(try CLI.run(["mls", "send", "--state", p.alice, "--content", "x", "--lock-wait", bad]).status, 64, bad)
        }
    }

    /// A write that fails (the file size limit, as on a full disk) leaves the state byte-identical,
    /// prints no event and exits non-zero with the reason.
    func testAFailedWriteLeavesTheStateAsItWas() throws {
        let p = try pair()
        defer { withExtendedLifetime(p) {} }
        let before = try bytes(p.alice)
        XCTAssertGreaterThan(before.count, 1024)
        let script = "trap '' XFSZ; ulimit -f 1; exec \"$0\" \"$@\""
        let sent = try CLI.exec(URL(fileURLWithPath: "/bin/bash"), ["-c", script, try CLI.binary().path, "mls", "send", "--state", p.alice, "--content", "lost?"],
                                stdin: nil, env: [:])
        XCTAssertNotEqual(sent.status, 0)
        XCTAssertTrue(sent.err.contains("cannot write"), sent.err)
        XCTAssertEqual(sent.out, "", "no event is printed for a state that was not saved")
        XCTAssertEqual(try bytes(p.alice), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: p.dir.path).filter { $0.hasPrefix(".alice") }, [], "no temporary file left")
        // And the state still works.
        let message = try T.lines(["mls", "send", "--state", p.alice, "--content", "saved"])
        let read = try T.lines(["mls", "process", "--state", p.bob], key: T.bobKey, stdin: try T.eventLine(message[0]))
        XCTAssertEqual(read.first?["content"] as? String, "saved")
    }

    /// The sections of a state file after its magic and version: `opaque<V>` each, with RFC 9420
    /// §2.1.2 variable-length sizes.
    func sections(_ file: [UInt8]) throws -> [[UInt8]] {
        var i = 5, out: [[UInt8]] = []
        while i < file.count {
            let width = 1 << Int(file[i] >> 6)
            guard width <= 4, i + width <= file.count else { throw CocoaError(.fileReadCorruptFile) }
            var n = Int(file[i] & 0x3f)
            for k in 1..<width { n = n << 8 | Int(file[i + k]) }
            i += width
            guard i + n <= file.count else { throw CocoaError(.fileReadCorruptFile) }
            out.append(Array(file[i..<(i + n)]))
            i += n
        }
        return out
    }

    /// A state file of `version` with these sections.
    func file(version: UInt8, _ sections: [[UInt8]]) -> [UInt8] {
        var out = Array("IKGS".utf8) + [version]
        for s in sections {
            let n = s.count
            out += n < 64 ? [UInt8(n)] : n < 16_384 ? [0x40 | UInt8(n >> 8), UInt8(n & 0xff)]
                : [0x80 | UInt8(n >> 24), UInt8((n >> 16) & 0xff), UInt8((n >> 8) & 0xff), UInt8(n & 0xff)]
            out += s
        }
        return out
    }

    func write(_ b: [UInt8], to path: String) throws {
        try Data(b).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(chmod(path, 0o600), 0)
    }

    /// Version 2 files (no seen section) and version 1 files (no buffered section either) are read
    /// and rewritten as version 3; version 4 and a version-2 header over version-3 bytes are
    /// refused with the file left alone.
    func testOlderFormatsMigrateAndUnknownOnesAreRefused() throws {
        let p = try pair()
        defer { withExtendedLifetime(p) {} }
        let v3 = try bytes(p.alice)
        XCTAssertEqual(Array(v3.prefix(5)), Array("IKGS".utf8) + [3])
        let parts = try sections(v3)
        XCTAssertEqual(parts.count, 4, "group, pending commit, buffered events, seen log")
        XCTAssertEqual(parts[2], [0x01, 0x00], "an empty buffered section")
        XCTAssertEqual(parts[3].first, 0x01, "the seen log, version 1")
        XCTAssertGreaterThan(parts[3].count, 2, "the confirmed commit is seen")

        for (version, kept) in [(UInt8(2), 3), (UInt8(1), 2)] {
            // From the file as it is now: an older copy would send on a ratchet step already used.
            try write(file(version: version, Array(try sections(try bytes(p.alice)).prefix(kept))), to: p.alice)
            let m = try T.lines(["mls", "send", "--state", p.alice, "--content", "migrated from \(version)"])
            let saved = try bytes(p.alice)
            XCTAssertEqual(Array(saved.prefix(5)), Array("IKGS".utf8) + [3], "version \(version) saved as version 3")
            XCTAssertEqual(try sections(saved).count, 4)
            let read = try T.lines(["mls", "process", "--state", p.bob], key: T.bobKey, stdin: try T.eventLine(m[0]))
            XCTAssertEqual(read.first?["content"] as? String, "migrated from \(version)")
        }

        let current = try bytes(p.alice)
        for (name, b) in [("version 4", Array(current.prefix(4)) + [4] + Array(current.dropFirst(5))),
                          ("version 2 over version-3 bytes", Array(current.prefix(4)) + [2] + Array(current.dropFirst(5)))] {
            try write(b, to: p.alice)
            let r = try CLI.run(["mls", "send", "--state", p.alice, "--content", "x"])
            XCTAssertEqual(r.status, 1, name)
            XCTAssertTrue(r.err.contains("cannot read the group state"), "\(name): \(r.err)")
            XCTAssertEqual(try bytes(p.alice), b, "\(name): left alone")
        }
    }

    /// A version-2 file written before the seen log had its own section
    /// (`vectors/marmot/state/marmot-group-v4.json`: Bob's file after reading one of Alice's
    /// messages, its seen entries inside `marmot_group` version 4). A re-signed copy of that
    /// message is a `duplicate` and the file is not rewritten; the next save writes version 3 with
    /// the entries in the seen section, and the copy is still a duplicate.
    func testAVersion2FileKeepsItsSeenEntries() throws {
        let fixture = try XCTUnwrap(try VectorFiles.json("marmot/state/marmot-group-v4.json") as? [String: Any])
        let v2 = try XCTUnwrap(Hex.decode(try XCTUnwrap(fixture["state_file_v2"] as? String)))
        let received = try NostrEvent(json: Array(try XCTUnwrap(fixture["received_event"] as? String).utf8))
        XCTAssertEqual(Array(v2.prefix(5)), Array("IKGS".utf8) + [2])
        let tmp = TemporaryDirectory(prefix: "ik-cli")
        defer { withExtendedLifetime(tmp) {} }
        let path = tmp.url.appendingPathComponent("bob.group").path
        try write(v2, to: path)
        let copy = TestEvents.note(Secp256k1.PrivateKey(), received.content, kind: 445, tags: received.tags,
                                   createdAt: Int64(Date().timeIntervalSince1970))
        let copyLine = copy.jsonBytes + [0x0a]
        let first = try T.lines(["mls", "process", "--state", path], key: T.bobKey, stdin: copyLine)
        XCTAssertEqual(first.map { $0["type"] as? String }, ["duplicate"])
        XCTAssertEqual(try bytes(path), v2, "a duplicate rewrites nothing")

        _ = try T.lines(["mls", "send", "--state", path, "--content", "saved again"])
        let v3 = try bytes(path)
        XCTAssertEqual(Array(v3.prefix(5)), Array("IKGS".utf8) + [3])
        let seen = try XCTUnwrap(try sections(v3).last)
        let id = try XCTUnwrap(Hex.decode(received.id))
        XCTAssertTrue(seen.indices.contains { seen[$0...].starts(with: id) }, "the migrated id is in the seen section")
        let again = try T.lines(["mls", "process", "--state", path], key: T.bobKey, stdin: copyLine)
        XCTAssertEqual(again.map { $0["type"] as? String }, ["duplicate"])
        XCTAssertEqual(try bytes(path), v3)
    }
}
