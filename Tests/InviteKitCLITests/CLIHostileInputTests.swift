import Foundation
import XCTest
import InviteKitTestSupport

/// Hostile arguments, streams, files and payloads against the built binary (issue 13): every
/// case checks the exit status, what reached stdout and stderr, and that no file was clobbered.
final class CLIHostileInputTests: XCTestCase {
    let sk = "0000000000000000000000000000000000000000000000000000000000000003"
    let pk = "f9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9"

    /// A usage error: exit 64, one line on stderr, no trap.
    func assertUsageError(_ args: [String], mentions: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try CLI.run(args)
        XCTAssertEqual(r.status, 64, "\(args): \(r.err)", file: file, line: line)
        XCTAssertEqual(r.err.split(separator: "\n").count, 1, "\(args): \(r.err)", file: file, line: line)
        XCTAssertTrue(r.err.contains(mentions), "\(args): \(r.err)", file: file, line: line)
        XCTAssertTrue(r.out.isEmpty, "\(args): \(r.out)", file: file, line: line)
    }

    /// A usage error a command finds while running (not while parsing) exits 64 too, before any
    /// home is opened.
    func testUsageErrorsFoundWhileRunningExit64() throws {
        let home = TemporaryDirectory(prefix: "ik-cli-usage")
        try assertUsageError(["group", "relays", "--home", home.path, "--group", "ab"], mentions: "--relay")
        try assertUsageError(["group", "add", "--home", home.path, "--group", "ab"], mentions: "--member")
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.url.appendingPathComponent("invitekit.sqlite").path))
    }

    // MARK: Numeric options

    func testEveryNumericOptionRefusesTrapValues() throws {
        for v in ["nan", "inf", "-inf", "1e300", "1e19", "0", "-1"] {
            try assertUsageError(["bench", "--seconds", v], mentions: "--seconds")
        }
        for v in ["-1", "0", "1000001"] {
            try assertUsageError(["bench", "--relay", "ws://127.0.0.1:1", "--count=\(v)"], mentions: "--count")
        }
        for sub in ["publish", "req"] {
            for v in ["nan", "inf", "1e300", "0", "-5"] {
                try assertUsageError(["relay", sub, "--relay", "ws://127.0.0.1:1", "--filter", "{}", "--timeout", v], mentions: "--timeout")
            }
        }
        for v in ["0", "-1", "65", "100000"] {
            try assertUsageError(["invite", "qr", "whistle://invite/x", "--scale", v], mentions: "--scale")
        }
        for v in ["0", "18446744073709551615", "18446744071914127000", "34560001"] {
            try assertUsageError(["keypackage", "create", "--secret-key", sk, "--lifetime", v], mentions: "--lifetime <lifetime>': must be within 1...34560000")
        }
        try assertUsageError(["keypackage", "verify", "--now", "-1"], mentions: "--now")
        try assertUsageError(["keypackage", "verify", "--skew", "18446744073709551615"], mentions: "--skew")
        try assertUsageError(["invite", "verify", "x", "--now", "-1"], mentions: "--now")
        for args in [["--members", "0"], ["--members", "2001"], ["--members", "-1"], ["--members", "10", "--removals", "-1"], ["--members", "10", "--removals", "9"]] {
            try assertUsageError(["mls", "simulate"] + args, mentions: "--")
        }
    }

    func testMLSSimulateRefusesWorkOverTheBoundBeforeStarting() throws {
        let start = Date()
        try assertUsageError(["mls", "simulate", "--members", "2000", "--removals", "1998"], mentions: "the bound is 2000000")
        XCTAssertLessThan(Date().timeIntervalSince(start), 20, "the refusal came after starting the work")
    }

    func testLifetimeIsReportedExactly() throws {
        let r = try CLI.run(["keypackage", "create", "--secret-key", sk, "--relay", "wss://relay.example.com", "--lifetime", "34560000", "--profile", "mip", "--json"])
        XCTAssertEqual(r.status, 0, r.err)
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let nb = try XCTUnwrap(o["not_before"] as? NSNumber).int64Value, na = try XCTUnwrap(o["not_after"] as? NSNumber).int64Value
        XCTAssertEqual(na - nb, 34_560_000 + 3600, "the lifetime runs from now; not_before is backdated by an hour (PROTOCOL §4.4)")
    }

    func testExpiresInNamesTheRealCap() throws {
        let r = try CLI.run(["invite", "create", "--secret-key", sk, "--group-id", "g", "--relay", "wss://r.example", "--expires-in", "100000000000"])
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.err.contains("must be within 1...3153600000"), r.err)
    }

    // MARK: Standard streams

    func testErrorPathsSurviveAnUnwritableStderr() throws {
        for redirect in ["</dev/null 2>&-", "</dev/null 2>/dev/full"] {
            let r = try CLI.shell(["event", "verify"], redirect: redirect)
            XCTAssertEqual(r.status, 1, "\(redirect): \(r.out)")
            XCTAssertTrue(r.out.isEmpty, "\(redirect): stdout got \(r.out)")
        }
        let usage = try CLI.shell(["bench", "--seconds", "nan"], redirect: "2>&-")
        XCTAssertEqual(usage.status, 64)
        for redirect in ["2>&-", "2>/dev/full"] {
            XCTAssertEqual(try CLI.shell(["invite", "verify", "not-an-invite"], redirect: redirect).status, 2, redirect)
            XCTAssertEqual(try CLI.shell(["relay", "publish"], redirect: "</dev/null " + redirect).status, 2, redirect)
            XCTAssertEqual(try CLI.shell(["keys", "show", "x", "y"], redirect: redirect).status, 64, redirect)
        }
    }

    func testFailedStdoutWritesExitNonZero() throws {
        let template = Array(#"{"kind":1,"content":"hi","tags":[]}"#.utf8)
        let cases: [([String], String, [UInt8]?)] = [
            (["keys", "generate"], ">/dev/full", nil),
            (["keys", "generate"], ">&-", nil),
            (["event", "sign", "--secret-key", sk], ">/dev/full", template),
            (["invite", "create", "--secret-key", sk, "--group-id", "g", "--relay", "wss://r.example"], ">&-", nil),
            (["invite", "qr", "whistle://invite/eyJyZWxheSI6IndzczovL3IiLCJpbnZpdGVyTnB1YiI6Im5wdWIxbHljZzVxdmp0cnAzcWpmNWY3emwzODJqOXg2bnJqejlzZGhlbnZ5eHE4YzM4MDhxeG11czZncTI2NiIsImdyb3VwSWQiOiJnIn0="], ">/dev/full", nil),
            (["--help"], ">/dev/full", nil),
        ]
        for (args, redirect, stdin) in cases {
            let r = try CLI.shell(args, redirect: redirect, stdin: stdin)
            XCTAssertEqual(r.status, 1, "\(args) \(redirect)")
            XCTAssertTrue(r.err.contains("cannot write standard output"), "\(args) \(redirect): \(r.err)")
        }
        let payload = try CLI.run(["nip44", "encrypt", "--secret-key", sk, "--public-key", pk], stdin: Array("secret".utf8))
        let d = try CLI.shell(["nip44", "decrypt", "--secret-key", sk, "--public-key", pk], redirect: ">/dev/full", stdin: payload.outBytes)
        XCTAssertEqual(d.status, 1, d.err)
    }

    func testClosedPipeStillEndsBySIGPIPE() throws {
        let big = [UInt8](repeating: 0x61, count: 1 << 20)
        let payload = try CLI.run(["nip44", "encrypt", "--secret-key", sk, "--public-key", pk], stdin: big)
        XCTAssertEqual(payload.status, 0)
        let r = try CLI.shell(["nip44", "decrypt", "--secret-key", sk, "--public-key", pk], redirect: "| head -c1 >/dev/null", stdin: payload.outBytes)
        XCTAssertEqual(r.status, 141, r.err)
    }

    // MARK: Files

    func testPNGOutputNeverReplacesWhatIsNotARegularFile() throws {
        let tmp = TemporaryDirectory(prefix: "ik-cli")
        defer { withExtendedLifetime(tmp) {} }
        let dir = tmp.url
        let url = "whistle://invite/eyJyZWxheSI6IndzczovL3IiLCJpbnZpdGVyTnB1YiI6Im5wdWIxbHljZzVxdmp0cnAzcWpmNWY3emwzODJqOXg2bnJqejlzZGhlbnZ5eHE4YzM4MDhxeG11czZncTI2NiIsImdyb3VwSWQiOiJnIn0="
        let victim = dir.appendingPathComponent("victim")
        try Data("keep me".utf8).write(to: victim)
        let link = dir.appendingPathComponent("link.png")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim)
        let fifo = dir.appendingPathComponent("fifo.png")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let sub = dir.appendingPathComponent("sub.png")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: false)
        for target in [link, fifo, sub] {
            let r = try CLI.run(["invite", "qr", url, "--png", target.path])
            XCTAssertEqual(r.status, 1, target.path)
            XCTAssertTrue(r.err.contains("not a regular file"), r.err)
        }
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "keep me")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), victim.path)
        // A regular file is replaced whole, and no temporary file is left behind.
        let png = dir.appendingPathComponent("out.png")
        try Data("old".utf8).write(to: png)
        XCTAssertEqual(try CLI.run(["invite", "qr", url, "--png", png.path]).status, 0)
        XCTAssertEqual(Array(try Data(contentsOf: png).prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        XCTAssertFalse(names.contains { $0.hasPrefix(".out.png") }, "\(names)")
    }

    func testKeyPackageStoreRefusesAWorldWritableDirectory() throws {
        let tmp = TemporaryDirectory(prefix: "ik-cli")
        defer { withExtendedLifetime(tmp) {} }
        let dir = tmp.url
        XCTAssertEqual(chmod(dir.path, 0o777), 0)
        let r = try CLI.run(["keypackage", "create", "--secret-key", sk, "--relay", "wss://relay.example.com", "--store", dir.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("writable by group or others"), r.err)
        XCTAssertTrue(r.out.isEmpty)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
    }

    // MARK: Terminal injection

    static let payload = "a\nsignerPubkey: victim\r\u{1B}[8m\u{9B}31m\u{7F}\u{202E}evil\u{2066}\u{2028}z"

    /// No C0 (other than the newline ending each line), DEL, C1, bidi control or line separator.
    func assertClean(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let bad = text.unicodeScalars.filter { u in
            (u.value < 0x20 && u != "\n") || (0x7F...0x9F).contains(u.value) || (0x202A...0x202E).contains(u.value)
                || (0x2066...0x2069).contains(u.value) || [0x061C, 0x200E, 0x200F, 0x2028, 0x2029].contains(u.value)
        }
        XCTAssertTrue(bad.isEmpty, "\(what) printed raw control characters: \(bad.map { String($0.value, radix: 16) })", file: file, line: line)
    }

    func testEveryTextModeCommandEscapesUntrustedStrings() throws {
        let p = Self.payload
        let signed = try CLI.run(["invite", "create", "--secret-key", sk, "--group-id", p, "--relay", "wss://r.example",
                                  "--name", p, "--description", p])
        XCTAssertEqual(signed.status, 0, signed.err)
        let signedURL = signed.out.trimmingCharacters(in: .whitespacesAndNewlines)
        let whistle = try CLI.run(["invite", "create", "--secret-key", sk, "--group-id", p, "--relay", "wss://r.example", "--format", "whistle"])
        XCTAssertEqual(whistle.status, 0, whistle.err)
        let whistleURL = whistle.out.trimmingCharacters(in: .whitespacesAndNewlines)
        let approval = try CLI.run(["invite", "approval-url", "--pubkey", pk, "--group-id", p])
        XCTAssertEqual(approval.status, 0, approval.err)
        let approvalURL = approval.out.trimmingCharacters(in: .whitespacesAndNewlines)

        let decoded = try CLI.run(["invite", "decode", signedURL])
        XCTAssertEqual(decoded.status, 0)
        XCTAssertEqual(decoded.out.components(separatedBy: "\n").filter { $0.hasPrefix("signerPubkey:") }.count, 1, decoded.out)
        XCTAssertTrue(decoded.out.contains("name: a\\nsignerPubkey: victim\\r\\u{1B}[8m"), decoded.out)

        let runs: [(String, CLI.Run)] = [
            ("decode signed", decoded),
            ("decode whistle", try CLI.run(["invite", "decode", whistleURL])),
            ("parse-approval", try CLI.run(["invite", "parse-approval", approvalURL])),
            ("verify", try CLI.run(["invite", "verify", signedURL])),
            ("verify garbage", try CLI.run(["invite", "verify", p])),
            ("decode garbage", try CLI.run(["invite", "decode", p])),
            ("qr garbage", try CLI.run(["invite", "qr", p])),
            ("keys show", try CLI.run(["keys", "show", p])),
            ("event verify", try CLI.run(["event", "verify"], stdin: Array(p.utf8))),
            ("keypackage verify", try CLI.run(["keypackage", "verify"], stdin: Array(p.utf8))),
            ("unwrap", try CLI.run(["unwrap", "--secret-key", sk], stdin: Array(p.utf8))),
            ("nip44 decrypt", try CLI.run(["nip44", "decrypt", "--secret-key", sk, "--public-key", pk], stdin: Array(p.utf8))),
            ("relay publish", try CLI.run(["relay", "publish", "--relay", p], stdin: Array(p.utf8))),
            ("vectors", try CLI.run(["vectors", "verify", "--dir", p])),
            ("invite create relay", try CLI.run(["invite", "create", "--secret-key", sk, "--group-id", "g", "--relay", p])),
            ("parser", try CLI.run(["invite", "decode", "--\(p)"])),
        ]
        for (what, r) in runs {
            assertClean(r.out, what + " stdout")
            assertClean(r.err, what + " stderr")
            XCTAssertLessThan(r.status, 128, what)
        }
    }

    // MARK: Builders refuse what readers refuse

    func testBuildersRefuseWhatTheirReadersRefuse() throws {
        let whistle = try CLI.run(["invite", "create", "--secret-key", sk, "--relay", "wss://r.example", "--format", "whistle",
                                   "--group-id", String(repeating: "g", count: 3000)])
        XCTAssertEqual(whistle.status, 1)
        XCTAssertTrue(whistle.err.contains("at most 4096"), whistle.err)
        let signed = try CLI.run(["invite", "create", "--secret-key", sk, "--relay", "wss://r.example", "--group-id", "g",
                                  "--name", String((0..<80_000).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement()! })])
        XCTAssertEqual(signed.status, 1)
        XCTAssertTrue(signed.err.contains("65536"), signed.err)
        let approval = try CLI.run(["invite", "approval-url", "--pubkey", pk, "--group-id", String(repeating: "g", count: 4097)])
        XCTAssertEqual(approval.status, 1)
        XCTAssertTrue(approval.err.contains("at most 4096"), approval.err)
        let rumor = Array(#"{"kind":14,"content":""#.utf8) + [UInt8](repeating: 0x61, count: 2_000_000) + Array(#"","tags":[]}"#.utf8)
        let wrap = try CLI.run(["wrap", "--secret-key", sk, "--recipient", pk], stdin: rumor)
        XCTAssertEqual(wrap.status, 1)
        XCTAssertTrue(wrap.err.contains("4194304"), wrap.err)
        XCTAssertTrue(wrap.out.isEmpty)
    }

    func testWhistleVerifyAppliesTheCreateRule() throws {
        // {"relay":"javascript:alert(1)","inviterNpub":<valid>,"groupId":""}
        let json = #"{"relay":"javascript:alert(1)","inviterNpub":"npub1lycg5qvjtrp3qjf5f7zl382j9x6nrjz9sdhenvyxq8c3808qxmus6gq266","groupId":""}"#
        let code = Data(json.utf8).base64EncodedString()
        let r = try CLI.run(["invite", "verify", code])
        XCTAssertEqual(r.status, 2, r.err)
    }

    // MARK: Messages

    func testMessagesNameTheRealCause() throws {
        let long = try CLI.run(["invite", "create", "--secret-key", sk, "--relay", "wss://r.example", "--group-id", "g",
                                "--name", String((0..<6000).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement()! })])
        XCTAssertEqual(long.status, 0, long.err)
        let qr = try CLI.run(["invite", "qr", long.out.trimmingCharacters(in: .whitespacesAndNewlines)])
        XCTAssertEqual(qr.status, 1)
        XCTAssertTrue(qr.err.contains("too long for a QR code"), qr.err)
        let approval = try CLI.run(["invite", "parse-approval", "whistle://addmember/\(pk)/" + String(repeating: "g", count: 20_000)])
        XCTAssertEqual(approval.status, 1)
        XCTAssertTrue(approval.err.contains("approval link is too long"), approval.err)
        let bench = try CLI.run(["bench", "--relay", "ws://127.0.0.1:1", "--count", "1"])
        XCTAssertEqual(bench.status, 1)
        XCTAssertTrue(bench.err.contains("cannot connect to the relay"), bench.err)
        XCTAssertFalse(bench.err.contains("SingleConnectionFailure"), bench.err)
    }

    // MARK: Secret keys

    func testSecretKeySources() throws {
        let tmp = TemporaryDirectory(prefix: "ik-cli")
        defer { withExtendedLifetime(tmp) {} }
        let dir = tmp.url
        let file = dir.appendingPathComponent("key")
        try Data((sk + "\n").utf8).write(to: file)
        let args = ["invite", "create", "--format", "whistle", "--group-id", "g", "--relay", "wss://r.example"]
        let reference = try CLI.run(args + ["--secret-key", sk])
        XCTAssertEqual(reference.status, 0, reference.err)

        XCTAssertEqual(chmod(file.path, 0o644), 0)
        let open = try CLI.run(args + ["--secret-key-file", file.path])
        XCTAssertEqual(open.status, 1)
        XCTAssertTrue(open.err.contains("chmod 600"), open.err)
        XCTAssertEqual(chmod(file.path, 0o600), 0)
        XCTAssertEqual(try CLI.run(args + ["--secret-key-file", file.path]).out, reference.out)
        XCTAssertEqual(try CLI.run(args, env: ["INVITEKIT_SECRET_KEY": sk]).out, reference.out)
        XCTAssertEqual(try CLI.run(args + ["--secret-key", "-"], stdin: Array((sk + "\n").utf8)).out, reference.out)

        let twice = try CLI.run(args + ["--secret-key", sk, "--secret-key", sk])
        XCTAssertEqual(twice.status, 64)
        XCTAssertTrue(twice.out.isEmpty)
        let missing = try CLI.run(args)
        XCTAssertEqual(missing.status, 64)
        XCTAssertTrue(missing.err.contains("--secret-key-file"), missing.err)
    }

    func testParserErrorsNeverEchoASecretKey() throws {
        let nsec = "nsec1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqsmhltgl"
        for args in [["keys", "show", sk, sk], ["keys", "show", sk, nsec], ["invite", "decode", "x", sk], ["keys", "generate", "--\(sk)"]] {
            let r = try CLI.run(args)
            XCTAssertNotEqual(r.status, 0)
            XCTAssertFalse(r.err.contains(sk), r.err)
            XCTAssertFalse(r.err.contains(nsec), r.err)
        }
    }

    // MARK: vectors verify

    func testVectorsVerifyFailsMissingEmptyAndGarbageInput() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let tmp = TemporaryDirectory(prefix: "ik-cli")
        defer { withExtendedLifetime(tmp) {} }
        let dir = tmp.url
        let copy = dir.appendingPathComponent("vectors")
        try FileManager.default.copyItem(at: root.appendingPathComponent("vectors"), to: copy)
        let ok = try CLI.run(["vectors", "verify", "--dir", copy.path])
        XCTAssertEqual(ok.status, 0, ok.out)

        let group = copy.appendingPathComponent("external/mls/treekem.json")
        let original = try Data(contentsOf: group)
        try FileManager.default.removeItem(at: group)
        let missing = try CLI.run(["vectors", "verify", "--dir", copy.path])
        XCTAssertEqual(missing.status, 1, missing.out)
        XCTAssertTrue(missing.out.contains("FAIL mlswg-treekem"), missing.out)

        try Data("{}".utf8).write(to: group)
        let empty = try CLI.run(["vectors", "verify", "--dir", copy.path])
        XCTAssertEqual(empty.status, 1, empty.out)
        XCTAssertTrue(empty.out.contains("FAIL mlswg-treekem"), empty.out)
        try original.write(to: group)

        let csv = copy.appendingPathComponent("external/bip340-test-vectors.csv")
        var text = try String(contentsOf: csv, encoding: .utf8)
        text += "x,,,,,,FALSE,\n"
        try text.write(to: csv, atomically: true, encoding: .utf8)
        let garbage = try CLI.run(["vectors", "verify", "--dir", copy.path])
        XCTAssertEqual(garbage.status, 1, garbage.out)
        XCTAssertTrue(garbage.out.contains("FAIL bip340: 19 passed, 1 failed"), garbage.out)

        // An invalid-string row that lost its string must not pass as "rejected".
        let nip19 = copy.appendingPathComponent("external/nip19-examples.json")
        let examples = try String(contentsOf: nip19, encoding: .utf8)
        try examples.replacingOccurrences(of: "\"bech32\": \"nevent1qq5v4rkz\"", with: "\"bech32x\": \"nevent1qq5v4rkz\"")
            .write(to: nip19, atomically: true, encoding: .utf8)
        let row = try CLI.run(["vectors", "verify", "--dir", copy.path])
        XCTAssertTrue(row.out.contains("FAIL nip19"), row.out)
    }
}
