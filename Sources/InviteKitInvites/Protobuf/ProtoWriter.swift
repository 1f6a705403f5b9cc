/// Appends protobuf wire encodings to a byte buffer.
public struct ProtoWriter {
    /// The encoding so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty writer with room for `capacity` bytes.
    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// A base-128 varint.
    public mutating func writeVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// A field key: `field << 3 | wireType`.
    public mutating func writeTag(_ field: UInt32, _ wireType: ProtoWireType) {
        writeVarint(UInt64(field) << 3 | UInt64(wireType.rawValue))
    }

    /// A length-delimited field.
    public mutating func writeBytes<C: Collection>(_ field: UInt32, _ value: C) where C.Element == UInt8 {
        writeTag(field, .lengthDelimited)
        writeVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// A `string` field (UTF-8, length-delimited).
    public mutating func writeString(_ field: UInt32, _ value: String) {
        writeBytes(field, value.utf8)
    }

    /// A `bool` field (varint 0 or 1).
    public mutating func writeBool(_ field: UInt32, _ value: Bool) {
        writeTag(field, .varint)
        bytes.append(value ? 1 : 0)
    }

    /// `sfixed64`: two's complement, little-endian.
    public mutating func writeSFixed64(_ field: UInt32, _ value: Int64) {
        writeTag(field, .fixed64)
        let u = UInt64(bitPattern: value)
        for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: u >> (8 * UInt64(i)))) }
    }

    /// Appends already-encoded fields (unknown fields kept from a parse).
    public mutating func writeRaw<C: Collection>(_ raw: C) where C.Element == UInt8 {
        bytes.append(contentsOf: raw)
    }
}
