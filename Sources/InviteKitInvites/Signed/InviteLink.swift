/// Links that carry a signed invite's slug (PROTOCOL.md §3.5 link forms).
public enum InviteLink {
    /// Domain used when the caller names none. A placeholder until InviteKit has a web home
    /// that answers `/v2?i=`; pass your own with `domain:`.
    public static let defaultDomain = "invitekit.app"
    /// Longest link accepted.
    public static let maxLength = InviteSlug.maxLength + 2048

    /// `https://<domain>/v2?i=<slug>`, Convos's current link form. The slug alphabet (base64url
    /// and `*`) is legal in a query, so the slug is written as is.
    public static func url(slug: String, domain: String = defaultDomain) throws(InviteError) -> String {
        guard isValidDomain(domain) else { throw InviteError(.invalidArgument, "domain must be a host name, optionally with a port") }
        return "https://" + domain + "/v2?i=" + slug
    }

    /// Extracts the slug from any accepted form: `https://<domain>/v2?i=<slug>`,
    /// `https://<domain>/i/<slug>`, `https://<domain>/…?code=<slug>`, `convos://join/<slug>`,
    /// `convos://invite/<slug>`, or a bare slug. Any https domain is accepted: the signature,
    /// not the host, makes an invite trustworthy. The slug is percent-decoded; `+` stays `+`.
    public static func slug(from input: String) throws(InviteError) -> String {
        guard input.utf8.count <= maxLength else { throw InviteError(.inputTooLarge, "\(input.utf8.count) bytes") }
        // Scanned as bytes: this sits on the verify hot path, and Character-level String
        // operations cost tens of microseconds on a 600-character link.
        let u = Array(input.utf8)
        var lo = 0, hi = u.count
        while lo < hi, isSpace(u[lo]) { lo += 1 }
        while hi > lo, isSpace(u[hi - 1]) { hi -= 1 }
        guard let colon = schemeEnd(u, lo, hi) else { return String(decoding: u[lo..<hi], as: UTF8.self) }
        let scheme = String(decoding: u[lo..<colon].map { $0 | 0x20 }, as: UTF8.self)
        let rest = colon + 3
        var raw: Range<Int>?
        switch scheme {
        case "https", "http":
            let fragment = first(u, rest, hi) { $0 == UInt8(ascii: "#") } ?? hi
            let hostEnd = first(u, rest, fragment) { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? fragment
            let q = first(u, hostEnd, fragment) { $0 == UInt8(ascii: "?") }
            if let q {
                var p = q + 1
                while p < fragment, raw == nil {
                    let amp = first(u, p, fragment) { $0 == UInt8(ascii: "&") } ?? fragment
                    if let eq = first(u, p, amp, { $0 == UInt8(ascii: "=") }) {
                        let key = u[p..<eq]
                        if key.elementsEqual("i".utf8) || key.elementsEqual("code".utf8) { raw = (eq + 1)..<amp }
                    }
                    p = amp + 1
                }
            }
            let pathEnd = q ?? fragment
            if raw == nil, pathEnd - hostEnd >= 3, u[hostEnd..<(hostEnd + 3)].elementsEqual("/i/".utf8) {
                raw = (hostEnd + 3)..<pathEnd
            }
        case "convos":
            let end = first(u, rest, hi) { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? hi
            for prefix in ["join/", "invite/"] {
                let p = Array(prefix.utf8)
                if end - rest >= p.count, u[rest..<(rest + p.count)].elementsEqual(p) { raw = (rest + p.count)..<end; break }
            }
        default:
            throw InviteError(.unrecognizedURL, "scheme \(scheme)")
        }
        guard let raw, !raw.isEmpty else { throw InviteError(.unrecognizedURL, "no invite in this link") }
        if !u[raw].contains(UInt8(ascii: "%")) {
            guard let s = String(validating: u[raw], as: UTF8.self) else { throw InviteError(.invalidEncoding, "not UTF-8") }
            return s
        }
        guard let slug = PercentEncoding.decode(String(decoding: u[raw], as: UTF8.self)) else {
            throw InviteError(.invalidEncoding, "bad percent escape")
        }
        return slug
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

    static func first(_ u: [UInt8], _ from: Int, _ to: Int, _ match: (UInt8) -> Bool) -> Int? {
        var i = from
        while i < to { if match(u[i]) { return i }; i += 1 }
        return nil
    }

    /// The index of `:` in a leading `scheme://` (RFC 3986 §3.1 scheme characters), or `nil`.
    static func schemeEnd(_ u: [UInt8], _ lo: Int, _ hi: Int) -> Int? {
        var i = lo
        while i < hi {
            let c = u[i]
            if c == UInt8(ascii: ":") {
                return i > lo && i + 2 < hi && u[i + 1] == UInt8(ascii: "/") && u[i + 2] == UInt8(ascii: "/") ? i : nil
            }
            let ok = (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) || (i > lo && ((c >= 0x30 && c <= 0x39) || c == 0x2B || c == 0x2D || c == 0x2E))
            if !ok { return nil }
            i += 1
        }
        return nil
    }

    static func isValidDomain(_ d: String) -> Bool {
        !d.isEmpty && d.utf8.count <= 253 && d.utf8.allSatisfy {
            ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39)
                || $0 == 0x2D || $0 == 0x2E || $0 == 0x3A
        }
    }
}
