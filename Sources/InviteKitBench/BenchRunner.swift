import Foundation

/// Runs cases for a time budget each and reports µs/op, ops/s and peak memory.
package struct BenchRunner {
    let budgetSeconds: Double

    package init(budgetSeconds: Double = 0.4) { self.budgetSeconds = budgetSeconds }

    package func run(_ cases: [BenchCase]) throws -> [BenchResult] {
        var results = [BenchResult]()
        for c in cases {
            let before = Self.peakRSSKiB()
            try c.body()  // warm up, and surface errors before timing
            var iterations = 0
            let start = DispatchTime.now().uptimeNanoseconds
            var elapsed: UInt64 = 0
            var batch = 1
            while elapsed < UInt64(budgetSeconds * 1e9) {
                for _ in 0..<batch { try c.body() }
                iterations += batch
                elapsed = DispatchTime.now().uptimeNanoseconds - start
                if elapsed < 50_000_000 { batch = min(batch * 2, 4096) }
            }
            let peak = Self.peakRSSKiB()
            results.append(BenchResult(name: c.name, iterations: iterations, microsPerOp: Double(elapsed) / 1000 / Double(iterations),
                                       bytesPerOp: c.bytesPerOp, peakRSSKiB: peak, peakGrowthKiB: max(0, peak - before), floorRatio: nil))
        }
        let byName = Dictionary(results.map { ($0.name, $0.microsPerOp) }, uniquingKeysWith: { a, _ in a })
        for (i, c) in cases.enumerated() {
            if let f = c.floor, let floor = byName[f] { results[i].floorRatio = results[i].microsPerOp / floor }
        }
        return results
    }

    static func peakRSSKiB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss
    }
}
