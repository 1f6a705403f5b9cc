/// Bech32 (BIP-173) and Bech32m (BIP-350): the one Bech32 codec. NIP-19 uses the original
/// constant (``encode(hrp:data:)``, ``decode(_:)``); Marmot invite codes use Bech32m with their
/// own length cap (``encode(hrp:data:variant:)``, ``decode(_:variant:maxLength:)``; PROTOCOL §5.14.3).
///
/// The 90-character limit of BIP-173 is lifted (NIP-19 TLV strings exceed it); a 5,000-character
/// cap bounds the work instead.
public enum Bech32 {
    public static let maxLength = 5000

    /// Which checksum constant: BIP-173's `1` or BIP-350's `0x2bc830a3`.
    public enum Variant: Sendable {
        case bech32, bech32m

        var constant: UInt32 { self == .bech32 ? 1 : 0x2bc8_30a3 }
    }
    private static let charset = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)
    private static let reverse: [Int8] = {
        var t = [Int8](repeating: -1, count: 128)
        for (i, c) in charset.enumerated() { t[Int(c)] = Int8(i) }
        return t
    }()

    private static func polymod(_ values: [UInt8]) -> UInt32 {
        let gen: [UInt32] = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]
        var chk: UInt32 = 1
        for v in values {
            let top = chk >> 25
            chk = (chk & 0x1ffffff) << 5 ^ UInt32(v)
            for i in 0..<5 where (top >> i) & 1 == 1 { chk ^= gen[i] }
        }
        return chk
    }

    private static func expandHRP(_ hrp: [UInt8]) -> [UInt8] {
        hrp.map { $0 >> 5 } + [0] + hrp.map { $0 & 31 }
    }

    /// Encodes 8-bit `data` under `hrp` (lowercase), with the Bech32 (BIP-173) checksum.
    public static func encode(hrp: String, data: [UInt8]) -> String { encode(hrp: hrp, data: data, variant: .bech32) }

    /// Encodes 8-bit `data` under `hrp` (lowercase) with `variant`'s checksum; zero padding bits.
    public static func encode(hrp: String, data: [UInt8], variant: Variant) -> String {
        encode(hrp: hrp, fiveBitValues: convertBits(data, from: 8, to: 5, pad: true)!, variant: variant)
    }

    /// Encodes 5-bit `values` as they are (so tests can write padding a decoder must refuse).
    package static func encode(hrp: String, fiveBitValues values: [UInt8], variant: Variant) -> String {
        let h = Array(hrp.lowercased().utf8)
        let mod = polymod(expandHRP(h) + values + [0, 0, 0, 0, 0, 0]) ^ variant.constant
        let checksum = (0..<6).map { UInt8((mod >> (5 * (5 - $0))) & 31) }
        return String(decoding: h + [UInt8(ascii: "1")] + (values + checksum).map { charset[Int($0)] }, as: UTF8.self)
    }

    /// Decodes to (hrp, 8-bit data). Rejects mixed case, bad characters, bad checksums and
    /// non-zero padding bits.
    public static func decode(_ string: String) throws(NostrError) -> (hrp: String, data: [UInt8]) {
        try decode(string, variant: .bech32, maxLength: maxLength)
    }

    /// Decodes `variant` to (hrp, 8-bit data). The length is checked before anything is
    /// allocated; rejects mixed case, bad characters, a checksum of the other variant (its own
    /// detail), bad checksums, and excess or non-zero padding bits. An all-uppercase string is
    /// accepted; the hrp is returned lowercase.
    public static func decode(_ string: String, variant: Variant, maxLength: Int) throws(NostrError) -> (hrp: String, data: [UInt8]) {
        guard string.utf8.count <= maxLength else { throw NostrError(.invalidBech32, "longer than \(maxLength) characters") }
        let raw = Array(string.utf8)
        guard raw.allSatisfy({ $0 >= 33 && $0 <= 126 }) else { throw NostrError(.invalidBech32, "characters outside printable ASCII") }
        let hasLower = raw.contains { $0 >= 0x61 && $0 <= 0x7a }, hasUpper = raw.contains { $0 >= 0x41 && $0 <= 0x5a }
        guard !(hasLower && hasUpper) else { throw NostrError(.invalidBech32, "mixed case") }
        let s = raw.map { ($0 >= 0x41 && $0 <= 0x5a) ? $0 + 32 : $0 }
        guard let sep = s.lastIndex(of: UInt8(ascii: "1")), sep >= 1, s.count - sep - 1 >= 6 else {
            throw NostrError(.invalidBech32, "no separator or too short")
        }
        let hrp = Array(s[..<sep])
        var values = [UInt8]()
        for c in s[(sep + 1)...] {
            let v = c < 128 ? reverse[Int(c)] : -1
            guard v >= 0 else { throw NostrError(.invalidBech32, "character outside the bech32 alphabet") }
            values.append(UInt8(v))
        }
        let residue = polymod(expandHRP(hrp) + values)
        guard residue == variant.constant else {
            let other: Variant = variant == .bech32 ? .bech32m : .bech32
            if residue == other.constant {
                throw NostrError(.invalidChecksum, variant == .bech32 ? "a bech32m checksum where bech32 is expected" : "a bech32 checksum where bech32m is expected")
            }
            throw NostrError(.invalidChecksum, "\(variant == .bech32 ? "bech32" : "bech32m") checksum mismatch")
        }
        guard let data = convertBits(Array(values.dropLast(6)), from: 5, to: 8, pad: false) else {
            throw NostrError(.invalidBech32, "invalid padding")
        }
        return (String(decoding: hrp, as: UTF8.self), data)
    }

    package static func convertBits(_ data: [UInt8], from: Int, to: Int, pad: Bool) -> [UInt8]? {
        var acc = 0, bits = 0
        var out = [UInt8]()
        let maxv = (1 << to) - 1
        for v in data {
            guard Int(v) >> from == 0 else { return nil }
            acc = (acc << from) | Int(v)
            bits += from
            while bits >= to {
                bits -= to
                out.append(UInt8((acc >> bits) & maxv))
            }
        }
        if pad {
            if bits > 0 { out.append(UInt8((acc << (to - bits)) & maxv)) }
        } else if bits >= from || ((acc << (to - bits)) & maxv) != 0 {
            return nil
        }
        return out
    }
}
