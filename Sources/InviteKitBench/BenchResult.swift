/// One case's figures: µs/op over its time budget, peak memory, and its ratio to the C floor it names.
package struct BenchResult {
    package let name: String
    package let iterations: Int
    package let microsPerOp: Double
    package var opsPerSecond: Double { 1_000_000 / microsPerOp }
    package let bytesPerOp: Int?
    package var megabytesPerSecond: Double? { bytesPerOp.map { Double($0) * opsPerSecond / 1_000_000 } }
    /// Peak resident set of the process after the case, KiB.
    package let peakRSSKiB: Int
    /// Growth of the peak during the case, KiB (0 when it fit in memory already touched).
    package let peakGrowthKiB: Int
    package var floorRatio: Double?
}
