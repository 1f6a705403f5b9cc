/// A tree hash (RFC 9420 §7.8) of the suites' SHA-256, held as four words: the tree keeps one per
/// node, and plain words copy and free with the chunks that hold them without a reference count
/// or an allocation each.
struct NodeHash: Hashable, Sendable {
    /// The placeholder a node holds before its hash is computed.
    static let zero = NodeHash(words: (0, 0, 0, 0))

    /// The 32 bytes as big-endian words.
    private let a: UInt64, b: UInt64, c: UInt64, d: UInt64

    private init(words: (UInt64, UInt64, UInt64, UInt64)) { (a, b, c, d) = words }

    init(_ bytes: [UInt8]) {
        precondition(bytes.count == 32, "a tree hash is 32 bytes")
        func word(_ i: Int) -> UInt64 { bytes[i..<i + 8].reduce(0) { $0 << 8 | UInt64($1) } }
        (a, b, c, d) = (word(0), word(8), word(16), word(24))
    }

    var bytes: [UInt8] {
        var w = TLSWriter(capacity: 32)
        for v in [a, b, c, d] { w.writeUInt64(v) }
        return w.bytes
    }

    /// Writes the hash as an `opaque<V>` (RFC 9420 §2.1.2), as `writeOpaque(bytes)` would.
    func writeOpaque(to w: inout TLSWriter) {
        w.writeVarint(32)
        w.writeUInt64(a); w.writeUInt64(b); w.writeUInt64(c); w.writeUInt64(d)
    }
}
