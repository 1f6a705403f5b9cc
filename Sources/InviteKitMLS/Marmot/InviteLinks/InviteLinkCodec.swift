import InviteKitCrypto

/// Reading and writing helpers shared by the invite-link v1 formats (PROTOCOL §5.14): the Marmot
/// binary profile (`shared/marmot/v2/foundation/canonical-encoding.md` "Marmot binary profile"):
/// fixed arrays without a prefix, `<lo..hi>` vectors with a shortest QUIC length whose bounds
/// are checked, the whole input consumed. Every failure is an ``MLSError`` with the caller's code.
enum InviteLinkCodec {
    /// The largest Unix time or `created_at` these formats accept, `2^53 - 1`.
    static let maxTime: UInt64 = 9_007_199_254_740_991

    /// Reads `bytes` with `body`, which must consume them exactly; any codec failure becomes
    /// `code` (keeping the detail).
    static func decode<T>(_ bytes: [UInt8], _ code: MLSError.Code, _ name: String, _ body: (inout TLSReader) throws -> T) throws -> T {
        var r = TLSReader(bytes)
        let value = try rethrowing(code, name) { try body(&r) }
        guard r.isAtEnd else { throw MLSError(code, "\(name) has trailing bytes") }
        return value
    }

    /// Runs `body`, turning a codec failure with another code into `code`.
    static func rethrowing<T>(_ code: MLSError.Code, _ name: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as MLSError where e.code != code {
            throw MLSError(code, "\(name): \(e.detail.isEmpty ? e.code.rawValue : e.detail)")
        }
    }

    /// `opaque x[32]`.
    static func read32(_ r: inout TLSReader) throws -> [UInt8] { try r.readBytes(32) }

    /// `opaque x<lo..hi>`: a shortest-form length inside the bounds, then that many bytes.
    static func readOpaque(_ r: inout TLSReader, _ bounds: ClosedRange<Int>, _ code: MLSError.Code, _ field: String) throws -> [UInt8] {
        let bytes = try r.readOpaque()
        guard bounds.contains(bytes.count) else {
            throw MLSError(code, "\(field) is \(bytes.count) bytes, outside \(bounds.lowerBound)..\(bounds.upperBound)")
        }
        return bytes
    }

    /// Refuses a field that is not exactly `count` bytes (for initialisers).
    static func require(_ bytes: [UInt8], count: Int, _ code: MLSError.Code, _ field: String) throws {
        guard bytes.count == count else { throw MLSError(code, "\(field) must be \(count) bytes, not \(bytes.count)") }
    }

    /// Refuses bytes that are not a valid x-only secp256k1 point (libsecp256k1).
    static func requireXOnly(_ bytes: [UInt8], _ code: MLSError.Code, _ field: String) throws {
        guard bytes.count == 32, (try? Secp256k1.XOnlyPublicKey(rawRepresentation: bytes)) != nil else {
            throw MLSError(code, "\(field) is not a valid x-only secp256k1 public key")
        }
    }

    /// Refuses a Unix time outside `1...2^53 - 1` (or 0 when `allowZero`).
    static func requireTime(_ t: UInt64, allowZero: Bool, _ code: MLSError.Code, _ field: String) throws {
        guard (allowZero && t == 0) || (1...maxTime).contains(t) else {
            throw MLSError(code, "\(field) \(t) is outside \(allowZero ? "0 or " : "")1..\(maxTime)")
        }
    }

    /// Refuses a list that is not strictly ascending by bytes (so also one with a repeat).
    static func requireSortedUnique(_ items: [[UInt8]], _ code: MLSError.Code, _ what: String) throws {
        for (a, b) in zip(items, items.dropFirst()) where !a.lexicographicallyPrecedes(b) {
            throw MLSError(code, a == b ? "\(what) repeats an item" : "\(what) is not sorted by bytes")
        }
    }

    static func encode(_ body: (inout TLSWriter) -> Void) -> [UInt8] {
        var w = TLSWriter(capacity: 256)
        body(&w)
        return w.bytes
    }

    /// Standard padded base64 of `bytes` (the content of the invite-link rumors and descriptor).
    static func base64(_ bytes: [UInt8]) -> String { Base64.encode(bytes) }

    /// Decodes canonical standard padded base64 of at most `maxDecoded` bytes: the encoded
    /// length is bounded before decoding (`nostr-invite-links.md` "Limits and privacy"), and the
    /// text must be exactly what ``base64(_:)`` produces for the result, so other alphabets,
    /// missing or extra padding and non-zero pad bits are refused.
    static func fromBase64(_ text: String, maxDecoded: Int, _ code: MLSError.Code, _ what: String) throws -> [UInt8] {
        let maxEncoded = (maxDecoded + 2) / 3 * 4
        guard text.utf8.count <= maxEncoded else { throw MLSError(code, "\(what) base64 is longer than \(maxEncoded) characters") }
        guard let bytes = Base64.decode(text, alphabet: .standard, padded: true), Base64.encode(bytes) == text else {
            throw MLSError(code, "\(what) is not canonical padded base64")
        }
        guard bytes.count <= maxDecoded else { throw MLSError(code, "\(what) decodes to \(bytes.count) bytes, above \(maxDecoded)") }
        return bytes
    }
}
