/// Lowercase hexadecimal, as Nostr uses for ids and keys.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Lowercase hex of `bytes`.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var out = [UInt8]()
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes hex (either case). Returns `nil` on odd length or a non-hex character.
    public static func decode<S: StringProtocol>(_ string: S) -> [UInt8]? {
        let utf8 = Array(string.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(utf8.count / 2)
        var i = 0
        while i < utf8.count {
            guard let hi = nibble(utf8[i]), let lo = nibble(utf8[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    /// Decodes exactly `count` bytes of hex, else `nil`.
    public static func decode<S: StringProtocol>(_ string: S, count: Int) -> [UInt8]? {
        guard string.utf8.count == count * 2 else { return nil }
        return decode(string)
    }

    /// Decodes hex straight into secure storage (for secret keys given on a command line).
    /// Reads the string's UTF-8 view in place: no intermediate copy of the secret is made.
    public static func decodeSecret<S: StringProtocol>(_ string: S, count: Int) -> SecureBytes? {
        let utf8 = string.utf8
        guard utf8.count == count * 2 else { return nil }
        var ok = true
        let out = SecureBytes(count: count) { buf in
            var it = utf8.makeIterator()
            for i in 0..<count {
                guard let a = it.next(), let b = it.next(), let hi = nibble(a), let lo = nibble(b) else { ok = false; return }
                buf[i] = hi << 4 | lo
            }
        }
        return ok ? out : nil
    }

    @inline(__always)
    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
