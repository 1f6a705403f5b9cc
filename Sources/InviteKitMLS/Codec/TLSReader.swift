/// Reads the TLS presentation language (RFC 8446 §3) with MLS variable-length vectors
/// (RFC 9420 §2.1.2).
package struct TLSReader {
    @usableFromInline let bytes: [UInt8]
    /// Next byte to read.
    package private(set) var position: Int
    @usableFromInline let end: Int

    /// Reads all of `bytes`.
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.position = 0
        self.end = bytes.count
    }

    init(bytes: [UInt8], start: Int, end: Int) {
        self.bytes = bytes
        self.position = start
        self.end = end
    }

    /// Bytes not yet read.
    package var remaining: Int { end - position }
    /// `true` once everything has been read.
    package var isAtEnd: Bool { position == end }

    /// Fails unless every byte was consumed.
    package func finish() throws {
        guard isAtEnd else { throw MLSError(.trailingBytes, "\(remaining) unread bytes") }
    }

    private mutating func need(_ n: Int) throws {
        guard n >= 0, n <= end - position else { throw MLSError(.truncated, "need \(n) bytes, have \(end - position)") }
    }

    package mutating func readUInt8() throws -> UInt8 {
        try need(1)
        defer { position += 1 }
        return bytes[position]
    }

    package mutating func readUInt16() throws -> UInt16 {
        try need(2)
        defer { position += 2 }
        return UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1])
    }

    package mutating func readUInt32() throws -> UInt32 {
        try need(4)
        var v: UInt32 = 0
        for i in 0..<4 { v = v << 8 | UInt32(bytes[position + i]) }
        position += 4
        return v
    }

    package mutating func readUInt64() throws -> UInt64 {
        try need(8)
        var v: UInt64 = 0
        for i in 0..<8 { v = v << 8 | UInt64(bytes[position + i]) }
        position += 8
        return v
    }

    /// Exactly `count` raw bytes.
    package mutating func readBytes(_ count: Int) throws -> [UInt8] {
        try need(count)
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    /// An MLS variable-length integer (RFC 9420 §2.1.2): the top two bits of the first byte give
    /// the length (1, 2 or 4 bytes); `0b11` is reserved; the value must use the shortest form.
    package mutating func readVarint() throws -> Int {
        try need(1)
        let first = bytes[position]
        let prefix = first >> 6
        let length: Int
        switch prefix {
        case 0: length = 1
        case 1: length = 2
        case 2: length = 4
        default: throw MLSError(.invalidVarint, "reserved length prefix 0b11")
        }
        try need(length)
        var v = UInt32(first & 0x3f)
        for i in 1..<length { v = v << 8 | UInt32(bytes[position + i]) }
        let minimal: Bool
        switch length {
        case 1: minimal = true
        case 2: minimal = v >= 64
        default: minimal = v >= 16384
        }
        guard minimal else { throw MLSError(.nonMinimalVarint, "value \(v) in \(length) bytes") }
        position += length
        return Int(v)
    }

    /// `opaque data<V>`.
    package mutating func readOpaque() throws -> [UInt8] {
        let n = try readVarint()
        return try readBytes(n)
    }

    /// Skips an `opaque data<V>` and returns the range of its contents.
    package mutating func skipOpaque() throws -> Range<Int> {
        let n = try readVarint()
        try need(n)
        let start = position
        position += n
        return start..<position
    }

    /// `T items<V>`: a length-prefixed vector whose contents must be consumed exactly by `element`.
    package mutating func readVector<T>(_ element: (inout TLSReader) throws -> T) throws -> [T] {
        let n = try readVarint()
        try need(n)
        var sub = TLSReader(bytes: bytes, start: position, end: position + n)
        var out: [T] = []
        while !sub.isAtEnd { out.append(try element(&sub)) }
        position += n
        return out
    }

    /// Borrows the raw bytes in `range` without copying them.
    package func withBytes<R>(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        precondition(range.lowerBound >= 0 && range.upperBound <= end)
        return try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// The raw bytes between two positions (for keeping a structure's exact serialization).
    package func slice(_ range: Range<Int>) -> [UInt8] { Array(bytes[range]) }
}
