/// Writes JSON in the compact form NIP-01 hashes: no whitespace; in strings only `"` `\` and
/// control characters are escaped (`\n \r \t \b \f` by name, the rest as `\u00xx`, as
/// serde_json and JSON.stringify do); `/` and non-ASCII go out verbatim.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    public var string: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func integer<I: BinaryInteger>(_ v: I) { bytes.append(contentsOf: String(v).utf8) }

    public mutating func quoted(_ s: String) {
        bytes.append(0x22)
        var s = s
        s.withUTF8 { u in
            var runStart = 0
            for k in 0..<u.count {
                let c = u[k]
                guard c < 0x20 || c == 0x22 || c == 0x5C else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: u[runStart..<k]))
                runStart = k + 1
                switch c {
                case 0x22: bytes.append(0x5C); bytes.append(0x22)
                case 0x5C: bytes.append(0x5C); bytes.append(0x5C)
                case 0x0A: bytes.append(0x5C); bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(0x5C); bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(0x5C); bytes.append(UInt8(ascii: "t"))
                case 0x08: bytes.append(0x5C); bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(0x5C); bytes.append(UInt8(ascii: "f"))
                default:
                    let digits = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, digits[Int(c >> 4)], digits[Int(c & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: u[runStart..<u.count]))
        }
        bytes.append(0x22)
    }

    public mutating func tags(_ tags: [[String]]) {
        bytes.append(UInt8(ascii: "["))
        for (i, tag) in tags.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "["))
            for (j, item) in tag.enumerated() {
                if j > 0 { bytes.append(UInt8(ascii: ",")) }
                quoted(item)
            }
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "]"))
    }

    public mutating func value(_ v: JSONValue) {
        switch v {
        case .null: raw("null")
        case .bool(let b): if b { raw("true") } else { raw("false") }
        case .number(let text): bytes.append(contentsOf: text.utf8)
        case .string(let s): quoted(s)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() { if i > 0 { bytes.append(UInt8(ascii: ",")) }; value(item) }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (i, m) in members.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                quoted(m.key); bytes.append(UInt8(ascii: ":")); value(m.value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Compact JSON text of `v`.
    public static func serialize(_ v: JSONValue) -> String {
        var w = JSONWriter(); w.value(v); return w.string
    }
}
