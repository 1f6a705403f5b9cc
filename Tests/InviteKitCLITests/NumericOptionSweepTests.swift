import Foundation
import XCTest

/// Row 1 of issue 20, for every command: each numeric option is found from the command tree
/// (`--experimental-dump-help`), not from a list kept by hand, and fed the values that trapped
/// (NaN, ±inf, negatives, values past `Int`/nanosecond range). Each must be a usage error
/// (exit 64) that names the option. A new numeric option is swept the day it is added.
final class NumericOptionSweepTests: XCTestCase {
    struct Option: Hashable {
        let command: [String]
        let name: String
    }

    static let hostile = ["nan", "NaN", "inf", "-inf", "+infinity", "-1", "-0.5", "1e300", "1e19", "99999999999999999999", "0x10", "0x1p4", "1_000", ""]

    /// Every option (not flag) of every command, with the command path that reaches it.
    func allOptions() throws -> [Option] {
        let r = try CLI.run(["--experimental-dump-help"])
        XCTAssertEqual(r.status, 0, r.err)
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        var out: [Option] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            for a in command["arguments"] as? [[String: Any]] ?? [] where a["kind"] as? String == "option" {
                let names = a["names"] as? [[String: Any]] ?? []
                let long = names.first { $0["kind"] as? String == "long" }?["name"] as? String
                guard let long, long != "experimental-dump-help" else { continue }
                out.append(Option(command: path, name: "--" + long))
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                guard let name = sub["commandName"] as? String, name != "help" else { continue }
                walk(sub, path + [name])
            }
        }
        walk(try XCTUnwrap(root["command"] as? [String: Any]), [])
        return out
    }

    /// Runs `command option=value --zz-no-such-option`: the unknown option stops any command
    /// that parsed, so nothing runs; a refused value is reported first.
    static func probe(_ o: Option, _ value: String) throws -> CLI.Run {
        try CLI.run(o.command + ["\(o.name)=\(value)", "--zz-no-such-option"], env: ["INVITEKIT_HOME": "/nonexistent/invitekit-sweep"])
    }

    static func refused(_ r: CLI.Run, _ o: Option) -> Bool {
        r.status == 64 && r.err.split(separator: "\n").count == 1
            && (r.err.contains("invalid for '\(o.name)") || r.err.contains("Missing value for '\(o.name)"))
    }

    func testEveryNumericOptionOfEveryCommandRefusesTrapValues() throws {
        let options = try allOptions()
        XCTAssertGreaterThan(options.count, 60, "the command tree looks truncated")
        let found = Found()
        DispatchQueue.concurrentPerform(iterations: options.count) { i in
            let o = options[i]
            do {
                // A string option accepts "abc"; a typed one (number, enum, URL) refuses it.
                let r = try Self.probe(o, "abc")
                guard Self.refused(r, o) else {
                    if r.status == 132 || r.status == 134 { found.fail("\(o): crashed on abc") }
                    return
                }
                found.add(o)
                for v in Self.hostile {
                    let h = try Self.probe(o, v)
                    if !Self.refused(h, o) { found.fail("\(o.command.joined(separator: " ")) \(o.name)=\(v): exit \(h.status), \(h.err)") }
                }
            } catch {
                found.fail("\(o): \(error)")
            }
        }
        let (typed, failures) = found.result
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
        // The sweep must reach the options of the issue's table (and so cannot pass empty).
        let names = Set(typed.map { ($0.command + [$0.name]).joined(separator: " ") })
        for expected in ["group read --interval", "serve --interval", "serve --duration", "join --timeout", "group send --timeout",
                         "bench --seconds", "mls simulate --members", "keypackage create --lifetime", "relay req --timeout"] {
            XCTAssertTrue(names.contains(expected), "\(expected) was not swept; swept: \(names.sorted())")
        }
    }

    func testTheMessageNamesTheBounds() throws {
        let r = try CLI.run(["group", "read", "--group", "g", "--follow", "--interval", "nan"])
        XCTAssertEqual(r.status, 64, r.err)
        XCTAssertTrue(r.err.contains("--interval") && r.err.contains("0.01...3600"), r.err)
        let j = try CLI.run(["join", "https://example.invalid/i#x", "--timeout", "1e300"])
        XCTAssertEqual(j.status, 64, j.err)
        XCTAssertTrue(j.err.contains("--timeout"), j.err)
    }

    /// What the concurrent probes found.
    final class Found: @unchecked Sendable {
        private let lock = NSLock()
        private var typed: [Option] = []
        private var failures: [String] = []
        func add(_ o: Option) { lock.withLock { typed.append(o) } }
        func fail(_ s: String) { lock.withLock { failures.append(s) } }
        var result: ([Option], [String]) { lock.withLock { (typed, failures.sorted()) } }
    }
}
