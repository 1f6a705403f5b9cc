import InviteKitCrypto

/// The text form of a signed invite (PROTOCOL.md §3.5): the (possibly compressed) serialized
/// ``SignedInvite`` as base64url without padding, with `*` after every 300 characters because
/// messengers break long unbroken tokens.
public enum InviteSlug {
    /// Inserted into long slugs, ignored when reading.
    public static let separator: Character = "*"
    /// Characters between separators.
    public static let chunkLength = 300
    /// Longest slug accepted, before any work: 1 MiB of `*`-free base64 is far beyond a QR code
    /// or a link, and bounds the decode's allocations.
    public static let maxLength = 64 * 1024

    /// Encodes wire bytes (already compressed or not) to a slug.
    public static func encode(_ bytes: [UInt8]) -> String {
        let plain = Base64.encode(bytes, alphabet: .urlSafe, padded: false)
        let n = plain.utf8.count
        guard n > chunkLength else { return plain }
        let stars = (n - 1) / chunkLength
        return String(unsafeUninitializedCapacity: n + stars) { out in
            var o = 0, i = 0
            for b in plain.utf8 {
                if i > 0 && i % chunkLength == 0 { out[o] = UInt8(ascii: "*"); o += 1 }
                out[o] = b; o += 1; i += 1
            }
            return o
        }
    }

    /// Decodes a slug to wire bytes: strips `*` and whitespace, accepts either base64 alphabet,
    /// with or without padding.
    public static func decode(_ slug: String) throws(InviteError) -> [UInt8] {
        guard slug.utf8.count <= maxLength else { throw InviteError(.inputTooLarge, "\(slug.utf8.count) characters") }
        var cleaned = [UInt8]()
        cleaned.reserveCapacity(slug.utf8.count)
        for b in slug.utf8 where b != UInt8(ascii: "*") && b != 0x20 && b != 0x0A && b != 0x0D && b != 0x09 {
            cleaned.append(b)
        }
        guard !cleaned.isEmpty else { throw InviteError(.invalidEncoding, "empty") }
        let text = String(decoding: cleaned, as: UTF8.self)
        guard let bytes = Base64.decodeLenient(text) else { throw InviteError(.invalidEncoding, "not base64") }
        return bytes
    }
}
