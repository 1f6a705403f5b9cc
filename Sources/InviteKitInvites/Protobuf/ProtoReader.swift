/// A cursor over protobuf wire bytes. Every read is bounds-checked and fails with a
/// ``ProtobufError``; nothing allocates more than the input already holds.
public struct ProtoReader {
    /// The message being read.
    public let bytes: [UInt8]
    /// Index of the next unread byte.
    public private(set) var offset: Int
    let end: Int

    /// A reader positioned at the start of `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.offset = 0
        self.end = bytes.count
    }

    /// `true` when every byte was consumed.
    public var isAtEnd: Bool { offset >= end }

    /// A base-128 varint of at most 10 bytes whose value fits in 64 bits.
    public mutating func readVarint() throws(ProtobufError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        for i in 0..<10 {
            guard offset < end else { throw ProtobufError(.truncatedVarint) }
            let b = bytes[offset]
            offset += 1
            if i == 9 && b > 1 { throw ProtobufError(.overlongVarint, "varint exceeds 64 bits") }
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
        }
        throw ProtobufError(.overlongVarint, "varint longer than 10 bytes")
    }

    /// A field key. Group wire types (3, 4) are refused: proto3 has no groups, and skipping
    /// them correctly would need a nesting counter that hostile input could exhaust.
    public mutating func readTag() throws(ProtobufError) -> (field: UInt32, wireType: ProtoWireType) {
        let key = try readVarint()
        let raw = UInt8(key & 7)
        let number = key >> 3
        guard number >= 1, number <= 0x1FFF_FFFF else { throw ProtobufError(.invalidFieldNumber, "field \(number)") }
        guard let wt = ProtoWireType(rawValue: raw) else { throw ProtobufError(.invalidWireType, "wire type \(raw)") }
        if wt == .startGroup || wt == .endGroup { throw ProtobufError(.groupWireType, "field \(number)") }
        return (UInt32(number), wt)
    }

    /// Eight bytes, little-endian (`fixed64`, `sfixed64`, `double`).
    public mutating func readFixed64() throws(ProtobufError) -> UInt64 {
        guard end - offset >= 8 else { throw ProtobufError(.truncatedFixed) }
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        offset += 8
        return v
    }

    /// Four bytes, little-endian (`fixed32`, `sfixed32`, `float`).
    public mutating func readFixed32() throws(ProtobufError) -> UInt32 {
        guard end - offset >= 4 else { throw ProtobufError(.truncatedFixed) }
        var v: UInt32 = 0
        for i in 0..<4 { v |= UInt32(bytes[offset + i]) << (8 * UInt32(i)) }
        offset += 4
        return v
    }

    /// A length prefix and that many bytes, without copying. The length is checked against
    /// the bytes left before anything is sliced.
    public mutating func readLengthDelimited() throws(ProtobufError) -> ArraySlice<UInt8> {
        let len = try readVarint()
        guard len <= UInt64(end - offset) else { throw ProtobufError(.lengthPastEnd, "length \(len), \(end - offset) left") }
        let start = offset
        offset += Int(len)
        return bytes[start..<offset]
    }

    /// A length-delimited field read as UTF-8 (protobuf `string`), strictly validated.
    public mutating func readString() throws(ProtobufError) -> String {
        let slice = try readLengthDelimited()
        guard let s = String(validating: slice, as: UTF8.self) else { throw ProtobufError(.invalidUTF8) }
        return s
    }

    /// Skips a value of `wireType`.
    public mutating func skip(_ wireType: ProtoWireType) throws(ProtobufError) {
        switch wireType {
        case .varint: _ = try readVarint()
        case .fixed64: _ = try readFixed64()
        case .fixed32: _ = try readFixed32()
        case .lengthDelimited: _ = try readLengthDelimited()
        case .startGroup, .endGroup: throw ProtobufError(.groupWireType)
        }
    }

    /// Reads the next field and returns its complete encoding (key and value), for keeping
    /// unknown fields verbatim.
    public func rawField(from start: Int) -> [UInt8] { Array(bytes[start..<offset]) }
}
