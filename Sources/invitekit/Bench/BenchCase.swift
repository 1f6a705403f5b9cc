/// One benchmarked operation.
struct BenchCase {
    let name: String
    /// Name of the C-floor case the ratio is taken against, if any.
    let floor: String?
    /// Bytes processed per operation, for a throughput column.
    let bytesPerOp: Int?
    let body: () throws -> Void

    init(_ name: String, floor: String? = nil, bytesPerOp: Int? = nil, _ body: @escaping () throws -> Void) {
        self.name = name; self.floor = floor; self.bytesPerOp = bytesPerOp; self.body = body
    }
}

struct BenchResult {
    let name: String
    let iterations: Int
    let microsPerOp: Double
    var opsPerSecond: Double { 1_000_000 / microsPerOp }
    let bytesPerOp: Int?
    var megabytesPerSecond: Double? { bytesPerOp.map { Double($0) * opsPerSecond / 1_000_000 } }
    /// Peak resident set of the process after the case, KiB.
    let peakRSSKiB: Int
    /// Growth of the peak during the case, KiB (0 when it fit in memory already touched).
    let peakGrowthKiB: Int
    var floorRatio: Double?
}
