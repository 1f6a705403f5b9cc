/// Writes the TLS presentation language with MLS variable-length vectors (RFC 9420 §2.1.2).
package struct TLSWriter {
    /// Bytes written so far.
    package private(set) var bytes: [UInt8]

    package init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Moves the bytes out, leaving the writer empty, so the caller holds the only reference (and
    /// can wipe it in place when it held secrets).
    package mutating func takeBytes() -> [UInt8] {
        var out: [UInt8] = []
        swap(&out, &bytes)
        return out
    }

    /// Largest length a variable-length integer can carry (2^30 - 1).
    package static let maxVarint = (1 << 30) - 1

    package mutating func writeUInt8(_ v: UInt8) { bytes.append(v) }

    package mutating func writeUInt16(_ v: UInt16) {
        bytes.append(UInt8(v >> 8)); bytes.append(UInt8(v & 0xff))
    }

    package mutating func writeUInt32(_ v: UInt32) {
        for s in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt32(s))) }
    }

    package mutating func writeUInt64(_ v: UInt64) {
        for s in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(s))) }
    }

    package mutating func writeBytes<C: Collection>(_ b: C) where C.Element == UInt8 { bytes.append(contentsOf: b) }

    /// The shortest MLS varint for `v` (RFC 9420 §2.1.2). Values above 2^30 - 1 cannot be encoded;
    /// callers keep lengths below that (a vector that large is a programming error).
    package mutating func writeVarint(_ v: Int) {
        precondition(v >= 0 && v <= TLSWriter.maxVarint, "MLS varint out of range")
        if v < 64 {
            bytes.append(UInt8(v))
        } else if v < 16384 {
            bytes.append(0x40 | UInt8(v >> 8)); bytes.append(UInt8(v & 0xff))
        } else {
            bytes.append(0x80 | UInt8(v >> 24)); bytes.append(UInt8((v >> 16) & 0xff))
            bytes.append(UInt8((v >> 8) & 0xff)); bytes.append(UInt8(v & 0xff))
        }
    }

    /// `opaque data<V>`.
    package mutating func writeOpaque<C: Collection>(_ b: C) where C.Element == UInt8 {
        writeVarint(b.count)
        bytes.append(contentsOf: b)
    }

    /// A length-prefixed vector whose contents `body` writes.
    package mutating func writeVector(_ body: (inout TLSWriter) -> Void) {
        // Written in place, then the length is slid in front: one memmove instead of a buffer
        // per nesting level (a ratchet tree inside a state would be copied at every level).
        let start = bytes.count
        body(&self)
        let length = bytes.count - start
        var prefix = TLSWriter(capacity: 4)
        prefix.writeVarint(length)
        bytes.insert(contentsOf: prefix.bytes, at: start)
    }

    /// `T items<V>` for a list of encodable values.
    package mutating func writeVector<T: TLSEncodable>(_ items: [T]) {
        writeVector { w in for item in items { item.encode(to: &w) } }
    }
}

/// A value with a TLS/MLS serialization.
package protocol TLSEncodable {
    func encode(to writer: inout TLSWriter)
}

/// A value that can be read back from its TLS/MLS serialization.
package protocol TLSDecodable {
    init(from reader: inout TLSReader) throws
}

package typealias TLSCodable = TLSEncodable & TLSDecodable

extension TLSEncodable {
    /// The serialization.
    package var tlsSerialized: [UInt8] {
        var w = TLSWriter()
        encode(to: &w)
        return w.bytes
    }
}

extension TLSDecodable {
    /// Parses exactly `bytes`; trailing bytes are an error.
    package init(tlsSerialized bytes: [UInt8]) throws {
        var r = TLSReader(bytes)
        self = try Self(from: &r)
        try r.finish()
    }
}
