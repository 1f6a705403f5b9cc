/// Base64 (RFC 4648 §4) and base64url (§5), written out because NIP-44 needs a strict decoder
/// and the invite formats need a tolerant one; Foundation offers neither precisely.
public enum Base64 {
    public enum Alphabet: Sendable { case standard, urlSafe }

    private static let standardTable = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlTable = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// Decoding tables: 0..63 for a digit, 0xFF for anything else. One per accepted alphabet,
    /// so the alphabet check costs nothing extra.
    private static func table(_ alphabets: [[UInt8]]) -> [UInt8] {
        var t = [UInt8](repeating: 0xFF, count: 256)
        for a in alphabets { for (i, c) in a.enumerated() { t[Int(c)] = UInt8(i) } }
        return t
    }
    private static let standardReverse = ShiftedTables(table([standardTable]))
    private static let urlReverse = ShiftedTables(table([urlTable]))
    private static let lenientReverse = ShiftedTables(table([standardTable, urlTable]))

    /// Each digit position's value pre-shifted into place, so a group of four decodes with four
    /// loads and three ORs. An invalid character sets bit 24, which no valid group reaches.
    private struct ShiftedTables: Sendable {
        let t: [UInt32]  // 4 × 256: positions 0..3
        init(_ r: [UInt8]) {
            var t = [UInt32](repeating: 0, count: 1024)
            for c in 0..<256 {
                let v = r[c]
                for pos in 0..<4 { t[pos * 256 + c] = v == 0xFF ? 1 << 24 : UInt32(v) << (18 - 6 * pos) }
            }
            self.t = t
        }
    }

    /// Encodes `bytes`; `padded` adds `=` to a multiple of 4.
    public static func encode<B: ContiguousBytes>(_ bytes: B, alphabet: Alphabet = .standard, padded: Bool = true) -> String {
        bytes.withUnsafeBytes { src in
            let table = alphabet == .standard ? standardTable : urlTable
            let full = src.count / 3, rem = src.count % 3
            let outLen = full * 4 + (rem == 0 ? 0 : (padded ? 4 : rem + 1))
            return String(unsafeUninitializedCapacity: outLen) { out in
                table.withUnsafeBufferPointer { t in
                    var o = 0, i = 0
                    for _ in 0..<full {
                        let v = UInt32(src[i]) << 16 | UInt32(src[i + 1]) << 8 | UInt32(src[i + 2])
                        out[o] = t[Int(v >> 18)]; out[o + 1] = t[Int(v >> 12 & 63)]
                        out[o + 2] = t[Int(v >> 6 & 63)]; out[o + 3] = t[Int(v & 63)]
                        o += 4; i += 3
                    }
                    if rem > 0 {
                        let v = UInt32(src[i]) << 16 | (rem == 2 ? UInt32(src[i + 1]) << 8 : 0)
                        out[o] = t[Int(v >> 18)]; out[o + 1] = t[Int(v >> 12 & 63)]
                        o += 2
                        if rem == 2 { out[o] = t[Int(v >> 6 & 63)]; o += 1 }
                        if padded { while o % 4 != 0 { out[o] = UInt8(ascii: "="); o += 1 } }
                    }
                    return o
                }
            }
        }
    }

    /// Strict decoding: one alphabet, padding exactly as `padded` says, no whitespace, and
    /// non-zero trailing bits rejected (so each byte string has exactly one encoding).
    public static func decode<S: StringProtocol>(_ string: S, alphabet: Alphabet = .standard, padded: Bool = true) -> [UInt8]? {
        var utf8 = Array(string.utf8)
        if padded {
            guard utf8.count % 4 == 0 else { return nil }
            var pads = 0
            while pads < 2, let last = utf8.last, last == UInt8(ascii: "=") { utf8.removeLast(); pads += 1 }
        }
        return decodeDigits(utf8, alphabet == .standard ? standardReverse : urlReverse)
    }

    /// Tolerant decoding for human-carried codes: either alphabet, padding optional, surrounding
    /// whitespace ignored.
    public static func decodeLenient<S: StringProtocol>(_ string: S) -> [UInt8]? {
        let all = Array(string.utf8)
        guard let first = all.firstIndex(where: { !isSpace($0) }), let last = all.lastIndex(where: { !isSpace($0) }) else { return [] }
        var utf8 = Array(all[first...last])
        var pads = 0
        while let last = utf8.last, last == UInt8(ascii: "=") { utf8.removeLast(); pads += 1 }
        guard pads <= 2 else { return nil }
        if pads > 0, (utf8.count + pads) % 4 != 0 { return nil }
        return decodeDigits(utf8, lenientReverse)
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

    private static func decodeDigits(_ digits: [UInt8], _ tables: ShiftedTables) -> [UInt8]? {
        let rem = digits.count % 4
        if rem == 1 { return nil }
        let fullGroups = digits.count / 4
        let outCount = fullGroups * 3 + (rem == 0 ? 0 : rem - 1)
        var bad: UInt32 = 0
        let out = [UInt8](unsafeUninitializedCapacity: outCount) { out, initialized in
            tables.t.withUnsafeBufferPointer { t in
                digits.withUnsafeBufferPointer { d in
                    var o = 0, i = 0
                    for _ in 0..<fullGroups {
                        let v = t[Int(d[i])] | t[256 + Int(d[i + 1])] | t[512 + Int(d[i + 2])] | t[768 + Int(d[i + 3])]
                        bad |= v
                        out[o] = UInt8(truncatingIfNeeded: v >> 16)
                        out[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
                        out[o + 2] = UInt8(truncatingIfNeeded: v)
                        o += 3; i += 4
                    }
                    if rem >= 2 {
                        var v = t[Int(d[i])] | t[256 + Int(d[i + 1])]
                        if rem == 3 { v |= t[512 + Int(d[i + 2])] }
                        bad |= v
                        out[o] = UInt8(truncatingIfNeeded: v >> 16)
                        if rem == 3 {
                            out[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
                            if v & 0xFF != 0 { bad |= 1 << 24 }       // non-zero trailing bits
                        } else if v & 0xFFFF != 0 { bad |= 1 << 24 }
                    }
                }
            }
            initialized = outCount
        }
        return bad & (1 << 24) == 0 ? out : nil
    }
}
