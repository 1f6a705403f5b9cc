/// The `RelayURL` lists of invite codes and request offers (`shared/marmot/v2/transports/nostr-invite-links.md`
/// "Long code", "Request delivery and package evidence"; PROTOCOL §5.14.3):
///
///     struct { opaque url<1..512>; } RelayURL;
///     RelayURL request_relays<1..4096>;   // codes: 1–8 URLs
///     RelayURL welcome_hints<0..4096>;    // offers: 0–8 URLs
///
/// Each URL is valid UTF-8 in the Nostr relay URL profile (`transports/nostr.md` "Relay URL
/// profile") and starts with exactly `wss://`; the list is sorted by UTF-8 bytes with no repeat.
/// Nothing is normalized: URLs are compared and sorted as bytes.
public enum InviteRelayURLList {
    /// The most URLs in a list.
    public static let maxURLs = 8
    /// The byte bound of the list vector.
    public static let maxVectorBytes = 4096
    /// The byte bound of one URL.
    public static let maxURLBytes = 512

    /// Whether `url` is a `wss://` URL of the relay URL profile: 1–512 bytes, no whitespace or
    /// control bytes, a host, no user information and no fragment. The scheme is matched
    /// byte-for-byte (`WSS://` is refused rather than case-folded).
    public static func isValid(_ url: String) -> Bool {
        let bytes = Array(url.utf8)
        guard (1...maxURLBytes).contains(bytes.count), !bytes.contains(where: { $0 <= 0x20 || $0 == 0x7f }) else { return false }
        guard bytes.starts(with: scheme), !bytes.contains(UInt8(ascii: "#")) else { return false }
        let authority = bytes.dropFirst(scheme.count).prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") }
        guard !authority.contains(UInt8(ascii: "@")) else { return false }
        let host = authority.first == UInt8(ascii: "[") ? authority.prefix { $0 != UInt8(ascii: "]") } : authority.prefix { $0 != UInt8(ascii: ":") }
        return !host.isEmpty && !(host.count == 1 && host.first == UInt8(ascii: "["))
    }

    private static let scheme = Array("wss://".utf8)

    /// Refuses a list outside `count`, with an invalid URL, unsorted or repeating.
    static func validate(_ urls: [String], count: ClosedRange<Int>, _ code: MLSError.Code, _ what: String) throws {
        guard count.contains(urls.count) else {
            throw MLSError(code, "\(what) has \(urls.count) relays, outside \(count.lowerBound)..\(count.upperBound)")
        }
        for (i, url) in urls.enumerated() where !isValid(url) {
            throw MLSError(code, "\(what) relay \(i) is not a wss:// relay URL")
        }
        try InviteLinkCodec.requireSortedUnique(urls.map { Array($0.utf8) }, code, what)
        guard urls.reduce(0, { $0 + lengthPrefixed($1) }) <= maxVectorBytes else {
            throw MLSError(code, "\(what) is above \(maxVectorBytes) bytes")
        }
    }

    private static func lengthPrefixed(_ url: String) -> Int {
        let n = url.utf8.count
        return n + (n < 64 ? 1 : 2)
    }

    static func write(_ urls: [String], to w: inout TLSWriter) {
        w.writeVector { inner in for u in urls { inner.writeOpaque(Array(u.utf8)) } }
    }

    /// Reads the list and checks it (without normalizing).
    static func read(_ r: inout TLSReader, count: ClosedRange<Int>, _ code: MLSError.Code, _ what: String) throws -> [String] {
        let body = try InviteLinkCodec.readOpaque(&r, 0...maxVectorBytes, code, what)
        var sub = TLSReader(body)
        var urls: [String] = []
        while !sub.isAtEnd {
            guard urls.count < maxURLs else { throw MLSError(code, "\(what) has more than \(maxURLs) relays") }
            let bytes = try InviteLinkCodec.readOpaque(&sub, 1...maxURLBytes, code, "relay url")
            guard let url = String(validating: bytes, as: UTF8.self) else { throw MLSError(code, "\(what) relay is not UTF-8") }
            urls.append(url)
        }
        try validate(urls, count: count, code, what)
        return urls
    }
}
