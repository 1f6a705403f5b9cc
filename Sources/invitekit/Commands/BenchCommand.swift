import ArgumentParser
import InviteKit
import Foundation

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Benchmark the hot operations: µs/op, ops/s, peak memory, ratio to the C floor.")
    @Flag(help: "Print JSON.") var json = false
    @Option(help: "Only cases whose name contains this text (C-floor cases always run).") var filter: String?
    @Option(help: "Seconds per case.") var seconds = 0.4

    func run() throws {
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

    func printTable(_ results: [BenchResult]) {
        StdIO.printLine("operation                        µs/op       ops/s      MB/s   × C floor   peak RSS (KiB)")
        for r in results {
            let mbs = r.megabytesPerSecond.map { String(format: "%9.1f", $0) } ?? "        -"
            let ratio = r.floorRatio.map { String(format: "%9.2f", $0) } ?? "        -"
            StdIO.printLine(r.name.padding(toLength: 28, withPad: " ", startingAt: 0) + String(format: " %10.2f %11.0f ", r.microsPerOp, r.opsPerSecond) + mbs + "   " + ratio + String(format: "   %8d (+%d)", r.peakRSSKiB, r.peakGrowthKiB))
        }
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
        }
        StdIO.printLine("[" + items.joined(separator: ",\n ") + "]")
    }
}

/// Every layer's benchmark cases.
enum BenchRegistry {
    static func cases() throws -> [BenchCase] {
        try NostrBenchmarks.cases() + InviteBenchmarks.cases() + MLSBenchmarks.cases()
    }
}
