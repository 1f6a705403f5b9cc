import ArgumentParser
import InviteKit
import InviteKitBench
import InviteKitRelayBench
import Foundation

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Benchmark the hot operations: µs/op, ops/s, peak memory, ratio to the C floor.")
    @Flag(help: "Print JSON.") var json = false
    @Option(help: "Only cases whose name contains this text (C-floor cases always run).") var filter: String?
    @Option(help: "Seconds per case.", transform: NumericOption.seconds(0.001...BenchCommand.maxSeconds)) var seconds: Double = 0.4
    @Option(help: "Instead: publish --count gift wraps to this relay, catch them up and unwrap them (with --node: the node's figures over it).",
            transform: RelayURLOption.parse) var relay: String?
    @Option(help: "Gift wraps for --relay (1...\(BenchCommand.maxCount)).", transform: NumericOption.integer(1...BenchCommand.maxCount)) var count: Int = 1000
    @Flag(help: "Instead: the durable store's figures (decisions/s, messages/s, catch-up of --count wraps, default 10000).") var store = false
    @Flag(help: "Instead: the node's figures through run() (round trips, a flood of --count junk events, default 5000; a commit at 1,000 members), over an in-memory relay unless --relay.") var node = false

    static let maxSeconds = 3600.0
    static let maxCount = 1_000_000

    func run() async throws {
        if node {
            try await runReportingErrors {
                var report = try await NodeBenchmarks.run(flood: count == 1000 ? 5000 : count, relayURL: relay)
                // At 1,000 members: 50 commits, then messages (and, over a real relay, CLI sends).
                try await NodeBenchmarks.groupThroughNode(size: 1000, commits: 50, messages: 20, relayURL: relay, cliSends: relay == nil ? 0 : 10,
                                                          nodeSends: 20, into: &report)
                var lines = report.lines
                if LargeGroupBenchmarks.largeEnabled {
                    var large = NodeBenchmarks.Report()
                    try await NodeBenchmarks.groupThroughNode(size: 10_000, commits: 10, messages: 10, relayURL: relay, cliSends: relay == nil ? 0 : 5,
                                                              nodeSends: 10, into: &large)
                    lines += large.groupLines
                }
                if json {
                    StdIO.printLine("[" + lines.map { l in
                        var o = JSONOutput()
                        o.add("name", l.0)
                        o.add("value", l.1)
                        return o.string
                    }.joined(separator: ",\n ") + "]")
                } else {
                    let width = max(72, lines.map(\.0.count).max() ?? 0)
                    for (name, value) in lines { StdIO.printLine(name.padding(toLength: width, withPad: " ", startingAt: 0) + " " + value) }
                }
            }
            return
        }
        if store {
            try runReportingErrors { try StoreBenchCommandOutput.run(count: count == 1000 ? 10_000 : count, json: json) }
            return
        }
        if let relay {
            try await runReportingErrors {
                guard relay.hasPrefix("ws://") || relay.hasPrefix("wss://") else { throw CLIFailure("--relay must be a ws:// or wss:// URL") }
                let report: RelayBenchReport
                do { report = try await RelayBench.run(relayURL: relay, count: count) } catch {
                    throw CLIFailure("cannot run the relay bench against \(relay): \(BenchCommand.relayFailure(error))")
                }
                if json {
                    var o = JSONOutput()
                    o.add("count", report.count)
                    o.add("accepted", report.accepted)
                    o.add("fetched", report.fetched)
                    o.add("unwrapped", report.unwrapped)
                    o.add("publish_ms", Self.ms(report.publishTime))
                    o.add("fetch_ms", Self.ms(report.fetchTime))
                    o.add("unwrap_ms", Self.ms(report.unwrapTime))
                    o.add("wraps_per_s", report.wrapsPerSecond)
                    StdIO.printLine(o.string)
                } else {
                    StdIO.printLine(report.description)
                }
                if report.unwrapped != report.count { throw CLIFailure("only \(report.unwrapped) of \(report.count) wraps came back") }
            }
            return
        }
        try runReportingErrors {
            var cases = CFloorBenchmarks.cases()
            var own = try BenchRegistry.cases()
            if let filter { own = own.filter { $0.name.contains(filter) } }
            let neededFloors = Set(own.compactMap(\.floor))
            cases = cases.filter { neededFloors.contains($0.name) || filter == nil }
            let results = try BenchRunner(budgetSeconds: seconds).run(cases + own)
            json ? printJSON(results) : printTable(results)
        }
    }

    /// A relay failure in words: the relay layer's coded errors as they are, anything from the
    /// socket stack (SwiftNIO's `connectTimeout`, `connection reset`, …) as "cannot connect".
    static func relayFailure(_ error: any Error) -> String {
        if let e = error as? RelayError, e.code == .connectionFailed {
            // The detail is SwiftNIO's text; keep only the operating system's reason.
            var reason = ""
            if let r = e.detail.range(of: "(errno: "), let n = Int32(e.detail[r.upperBound...].prefix(while: \.isNumber)) {
                reason = ": " + String(cString: strerror(n))
            }
            return "cannot connect to the relay\(reason) [\(e.code.rawValue)]"
        }
        if error is RelayError || error is NostrError { return CLIMessages.describe(error) }
        return "cannot connect to the relay"
    }

    static func ms(_ d: Duration) -> Double { (Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18) * 1000 }

    func printTable(_ results: [BenchResult]) {
        StdIO.printLine("operation                        µs/op       ops/s      MB/s   × C floor   peak RSS (KiB)")
        for r in results {
            let mbs = r.megabytesPerSecond.map { String(format: "%9.1f", $0) } ?? "        -"
            let ratio = r.floorRatio.map { String(format: "%9.2f", $0) } ?? "        -"
            StdIO.printLine(r.name.padding(toLength: 28, withPad: " ", startingAt: 0) + String(format: " %10.2f %11.0f ", r.microsPerOp, r.opsPerSecond) + mbs + "   " + ratio + String(format: "   %8d (+%d)", r.peakRSSKiB, r.peakGrowthKiB))
        }
        for s in GroupScaleBenchmarks.sizes { StdIO.printLine(s.name.padding(toLength: 28, withPad: " ", startingAt: 0) + " \(s.bytes) bytes") }
        let rowWidth = max(44, LargeGroupBenchmarks.rows.map(\.name.count).max() ?? 0)
        for r in LargeGroupBenchmarks.rows { StdIO.printLine(r.name.padding(toLength: rowWidth, withPad: " ", startingAt: 0) + " \(r.value) \(r.unit)") }
    }

    func printJSON(_ results: [BenchResult]) {
        let items: [String] = results.map { r in
            var o = JSONOutput()
            o.add("name", r.name)
            o.add("iterations", r.iterations)
            o.add("us_per_op", r.microsPerOp)
            o.add("ops_per_s", r.opsPerSecond)
            if let m = r.megabytesPerSecond { o.add("mb_per_s", m) }
            if let f = r.floorRatio { o.add("c_floor_ratio", f) }
            o.add("peak_rss_kib", r.peakRSSKiB)
            o.add("peak_growth_kib", r.peakGrowthKiB)
            return o.string
        } + GroupScaleBenchmarks.sizes.map { s in
            var o = JSONOutput()
            o.add("name", s.name)
            o.add("bytes", s.bytes)
            return o.string
        } + LargeGroupBenchmarks.rows.map { r in
            var o = JSONOutput()
            o.add("name", r.name)
            o.add(r.unit, r.value)
            return o.string
        }
        StdIO.printLine("[" + items.joined(separator: ",\n ") + "]")
    }
}
