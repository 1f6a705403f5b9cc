/// RFC 3986 percent-encoding for the few URL parts InviteKit builds and parses by hand
/// (Foundation's URL parsing differs across platforms on custom schemes).
enum PercentEncoding {
    /// Encodes everything but the unreserved set `A-Z a-z 0-9 - . _ ~` (RFC 3986 §2.3).
    static func encodeUnreserved(_ s: String) -> String {
        encode(s) { isUnreserved($0) }
    }

    static func encode(_ s: String, keep: (UInt8) -> Bool) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out = [UInt8]()
        for b in s.utf8 {
            if keep(b) { out.append(b) } else { out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0xF)]] }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func isUnreserved(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
            || b == 0x2D || b == 0x2E || b == 0x5F || b == 0x7E
    }

    /// Decodes `%XX`; `nil` on a bad escape or when the result is not UTF-8.
    static func decode<S: StringProtocol>(_ s: S) -> String? {
        let u = Array(s.utf8)
        var out = [UInt8]()
        out.reserveCapacity(u.count)
        var i = 0
        while i < u.count {
            if u[i] == UInt8(ascii: "%") {
                guard i + 2 < u.count, let hi = nibble(u[i + 1]), let lo = nibble(u[i + 2]) else { return nil }
                out.append(hi << 4 | lo)
                i += 3
            } else {
                out.append(u[i])
                i += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }

    /// Splits `scheme://rest`, lowercasing the scheme; `nil` when there is no `://`.
    static func splitScheme(_ s: Substring) -> (scheme: String, rest: Substring)? {
        guard let r = s.range(of: "://") else { return nil }
        return (s[..<r.lowerBound].lowercased(), s[r.upperBound...])
    }
}
