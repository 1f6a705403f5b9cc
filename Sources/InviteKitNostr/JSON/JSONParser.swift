import InviteKitCrypto

/// A strict RFC 8259 parser with hard limits, for input that arrives from relays and strangers.
public struct JSONParser {
    /// Default size cap: large enough for a NIP-44 extended-length gift wrap, small enough to
    /// bound memory. Callers pass their own where a format documents a tighter one.
    public static let defaultMaxBytes = 4 * 1024 * 1024
    public static let defaultMaxDepth = 32

    public static func parse<B: ContiguousBytes>(_ bytes: B, maxBytes: Int = defaultMaxBytes, maxDepth: Int = defaultMaxDepth) throws(JSONError) -> JSONValue {
        let result: Result<JSONValue, JSONError> = bytes.withUnsafeBytes { raw in
            guard raw.count <= maxBytes else { return .failure(JSONError(code: .jsonTooLarge, offset: maxBytes)) }
            var p = Cursor(buf: raw.bindMemory(to: UInt8.self), maxDepth: maxDepth)
            do throws(JSONError) {
                p.skipSpace()
                let v = try p.value(depth: 0)
                p.skipSpace()
                guard p.i == p.buf.count else { throw JSONError(code: .jsonTrailingData, offset: p.i) }
                return .success(v)
            } catch { return .failure(error) }
        }
        return try result.get()
    }

    public static func parse(_ string: String, maxBytes: Int = defaultMaxBytes, maxDepth: Int = defaultMaxDepth) throws(JSONError) -> JSONValue {
        try parse(Array(string.utf8), maxBytes: maxBytes, maxDepth: maxDepth)
    }

    struct Cursor {
        let buf: UnsafeBufferPointer<UInt8>
        let maxDepth: Int
        var i = 0

        init(buf: UnsafeBufferPointer<UInt8>, maxDepth: Int) { self.buf = buf; self.maxDepth = maxDepth }

        func fail(_ code: JSONError.Code) -> JSONError { JSONError(code: code, offset: i) }

        mutating func skipSpace() {
            while i < buf.count, buf[i] == 0x20 || buf[i] == 0x0A || buf[i] == 0x0D || buf[i] == 0x09 { i += 1 }
        }

        mutating func expect(_ literal: StaticString) throws(JSONError) {
            let n = literal.utf8CodeUnitCount
            guard i + n <= buf.count else { throw fail(.jsonSyntax) }
            let lp = literal.utf8Start
            for k in 0..<n where buf[i + k] != lp[k] { throw fail(.jsonSyntax) }
            i += n
        }

        mutating func value(depth: Int) throws(JSONError) -> JSONValue {
            guard i < buf.count else { throw fail(.jsonSyntax) }
            switch buf[i] {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try expect("true"); return .bool(true)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false)
            case UInt8(ascii: "n"): try expect("null"); return .null
            default: return .number(try number())
            }
        }

        mutating func array(depth: Int) throws(JSONError) -> JSONValue {
            guard depth <= maxDepth else { throw fail(.jsonTooDeep) }
            i += 1
            var items = [JSONValue]()
            skipSpace()
            if i < buf.count, buf[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            while true {
                skipSpace()
                items.append(try value(depth: depth))
                skipSpace()
                guard i < buf.count else { throw fail(.jsonSyntax) }
                if buf[i] == UInt8(ascii: ",") { i += 1; continue }
                if buf[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                throw fail(.jsonSyntax)
            }
        }

        mutating func object(depth: Int) throws(JSONError) -> JSONValue {
            guard depth <= maxDepth else { throw fail(.jsonTooDeep) }
            i += 1
            var members = [JSONMember]()
            var keys = Set<String>()
            skipSpace()
            if i < buf.count, buf[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            while true {
                skipSpace()
                guard i < buf.count, buf[i] == UInt8(ascii: "\"") else { throw fail(.jsonSyntax) }
                let keyStart = i
                let key = try string()
                guard keys.insert(key).inserted else { throw JSONError(code: .jsonDuplicateKey, offset: keyStart) }
                skipSpace()
                guard i < buf.count, buf[i] == UInt8(ascii: ":") else { throw fail(.jsonSyntax) }
                i += 1
                skipSpace()
                members.append(JSONMember(key, try value(depth: depth)))
                skipSpace()
                guard i < buf.count else { throw fail(.jsonSyntax) }
                if buf[i] == UInt8(ascii: ",") { i += 1; continue }
                if buf[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                throw fail(.jsonSyntax)
            }
        }

        mutating func number() throws(JSONError) -> String {
            let start = i
            if i < buf.count, buf[i] == UInt8(ascii: "-") { i += 1 }
            guard i < buf.count, isDigit(buf[i]) else { throw fail(.jsonSyntax) }
            if buf[i] == UInt8(ascii: "0") { i += 1 } else { while i < buf.count, isDigit(buf[i]) { i += 1 } }
            if i < buf.count, buf[i] == UInt8(ascii: ".") {
                i += 1
                guard i < buf.count, isDigit(buf[i]) else { throw fail(.jsonSyntax) }
                while i < buf.count, isDigit(buf[i]) { i += 1 }
            }
            if i < buf.count, buf[i] == UInt8(ascii: "e") || buf[i] == UInt8(ascii: "E") {
                i += 1
                if i < buf.count, buf[i] == UInt8(ascii: "+") || buf[i] == UInt8(ascii: "-") { i += 1 }
                guard i < buf.count, isDigit(buf[i]) else { throw fail(.jsonSyntax) }
                while i < buf.count, isDigit(buf[i]) { i += 1 }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buf[start..<i]), as: UTF8.self)
        }

        @inline(__always) func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

        mutating func string() throws(JSONError) -> String {
            i += 1  // opening quote
            let start = i
            // Fast path: no escapes.
            while i < buf.count {
                let c = buf[i]
                if c == UInt8(ascii: "\"") {
                    let slice = UnsafeBufferPointer(rebasing: buf[start..<i])
                    i += 1
                    return try validated(slice, at: start)
                }
                if c == UInt8(ascii: "\\") { break }
                if c < 0x20 { throw fail(.jsonSyntax) }
                i += 1
            }
            var out = [UInt8](UnsafeBufferPointer(rebasing: buf[start..<i]))
            while i < buf.count {
                let c = buf[i]
                if c == UInt8(ascii: "\"") {
                    i += 1
                    return try out.withUnsafeBufferPointer { b throws(JSONError) in try validated(b, at: start) }
                }
                if c < 0x20 { throw fail(.jsonSyntax) }
                if c != UInt8(ascii: "\\") { out.append(c); i += 1; continue }
                i += 1
                guard i < buf.count else { throw fail(.jsonSyntax) }
                let e = buf[i]; i += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard i + 1 < buf.count, buf[i] == UInt8(ascii: "\\"), buf[i + 1] == UInt8(ascii: "u") else { throw fail(.jsonInvalidUTF8) }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail(.jsonInvalidUTF8) }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw fail(.jsonInvalidUTF8)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw fail(.jsonInvalidUTF8) }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default: throw fail(.jsonSyntax)
                }
            }
            throw fail(.jsonSyntax)
        }

        mutating func hex4() throws(JSONError) -> UInt32 {
            guard i + 4 <= buf.count else { throw fail(.jsonSyntax) }
            var v: UInt32 = 0
            for k in 0..<4 {
                let c = buf[i + k]
                let d: UInt32
                switch c {
                case 0x30...0x39: d = UInt32(c - 0x30)
                case 0x61...0x66: d = UInt32(c - 0x61 + 10)
                case 0x41...0x46: d = UInt32(c - 0x41 + 10)
                default: throw fail(.jsonSyntax)
                }
                v = v << 4 | d
            }
            i += 4
            return v
        }

        func validated(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws(JSONError) -> String {
            guard let s = String(validating: bytes, as: UTF8.self) else { throw JSONError(code: .jsonInvalidUTF8, offset: offset) }
            return s
        }
    }
}
