/// One benchmarked operation.
package struct BenchCase {
    package let name: String
    /// Name of the C-floor case the ratio is taken against, if any.
    package let floor: String?
    /// Bytes processed per operation, for a throughput column.
    let bytesPerOp: Int?
    let body: () throws -> Void

    init(_ name: String, floor: String? = nil, bytesPerOp: Int? = nil, _ body: @escaping () throws -> Void) {
        self.name = name; self.floor = floor; self.bytesPerOp = bytesPerOp; self.body = body
    }
}
