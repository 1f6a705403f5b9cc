import InviteKitCrypto

/// Invite tags: 10 characters of `[A-Za-z0-9]`, each drawn uniformly by rejection sampling,
/// not the biased `byte % 62` of the original: a random byte is used only when it is below
/// 248 (= 4 × 62), and then `byte % 62` is exactly uniform. Bytes are drawn from the
/// ``RandomSource`` in batches, since one call per character costs more than the rest of the
/// tag.
public enum InviteTag {
    /// Characters in a generated tag.
    public static let length = 10
    /// The most characters a valid tag has (PROTOCOL.md §3.6).
    public static let maxLength = 64
    /// `[A-Za-z0-9]`, 62 symbols.
    public static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// A fresh tag from `rng`.
    public static func generate(using rng: RandomSource = SystemRandom()) -> String {
        let limit = UInt8(256 - 256 % alphabet.count)  // 248
        var out = [UInt8]()
        out.reserveCapacity(length)
        while out.count < length {
            // 16 bytes give 10 accepted ones except with probability < 1e-6; loop otherwise.
            for b in rng.bytes(16) where b < limit && out.count < length {
                out.append(alphabet[Int(b) % alphabet.count])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `true` for a tag an invite may carry: 1 to ``maxLength`` characters of ``alphabet``
    /// (PROTOCOL.md §3.6). The one rule for every place that accepts a tag (a builder, the CLI).
    public static func isValid(_ tag: String) -> Bool {
        (1...maxLength).contains(tag.utf8.count) && tag.utf8.allSatisfy { alphabet.contains($0) }
    }

    /// The rule ``isValid(_:)`` applies, for error messages.
    public static let rule = "1–\(maxLength) characters of [A-Za-z0-9]"
}
