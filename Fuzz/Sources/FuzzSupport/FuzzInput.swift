/// The bytes libFuzzer hands to a target, with the small helpers every harness needs.
public struct FuzzInput {
    public let bytes: [UInt8]

    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    }

    /// The input as text (invalid UTF-8 is replaced, as a network reader would).
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// First byte selects a harness mode; the rest is the mode's payload.
    public func mode(of count: Int) -> (mode: Int, rest: [UInt8]) {
        guard let first = bytes.first else { return (0, []) }
        return (Int(first) % count, Array(bytes.dropFirst()))
    }
}

/// Reads a little header from a payload without failing: missing bytes read as zero.
public struct ByteTaker {
    public private(set) var rest: ArraySlice<UInt8>
    public init(_ bytes: [UInt8]) { rest = bytes[...] }
    public mutating func byte() -> UInt8 { rest.popFirst() ?? 0 }
    public mutating func uint16() -> Int { Int(byte()) << 8 | Int(byte()) }
}
