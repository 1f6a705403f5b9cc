/// Overwrites a temporary buffer that held secret material before it is released.
@inline(never)
func zeroize(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { buf in
        guard let base = buf.baseAddress else { return }
        // Volatile-style store through an opaque pointer so the write is not elided.
        let p = base.assumingMemoryBound(to: UInt8.self)
        for i in 0..<buf.count { p.advanced(by: i).pointee = 0 }
    }
    withExtendedLifetime(bytes) {}
}
