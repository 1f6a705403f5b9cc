extension InviteCode {
    /// Scheme and host of Whistle invite links.
    public static let urlPrefix = "whistle://invite/"

    /// `whistle://invite/<code>`. A base64 `/` is written `%2F` and `+` is written `%2B`: a raw
    /// `/` splits the path (Whistle's original parser lost everything after it) and some URL
    /// decoders turn `+` into a space. `=` is legal in a path segment and stays.
    public var url: String {
        Self.urlPrefix + PercentEncoding.encode(code) { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "%") }
    }

    /// Parses `whistle://invite/<code>` or a bare code. The code is everything after
    /// `invite/` up to a `?` or `#`, raw slashes included, percent-decoded; a space (from a
    /// decoder that read `+` as a space) is read back as `+`.
    public init(url input: String) throws(InviteError) {
        guard input.utf8.count <= Self.maxInputLength * 3 else { throw InviteError(.inputTooLarge) }
        let trimmed = input.trimmingASCIIWhitespace()
        guard let (scheme, rest) = PercentEncoding.splitScheme(trimmed) else {
            try self.init(code: String(trimmed))
            return
        }
        guard scheme == "whistle" else { throw InviteError(.unrecognizedURL, "scheme \(scheme)") }
        guard rest.lowercased().hasPrefix("invite/") else { throw InviteError(.unrecognizedURL, "not an invite link") }
        var body = rest.dropFirst("invite/".count)
        if let cut = body.firstIndex(where: { $0 == "?" || $0 == "#" }) { body = body[..<cut] }
        guard let decoded = PercentEncoding.decode(body) else { throw InviteError(.invalidEncoding, "bad percent escape") }
        try self.init(code: decoded.replacingSpaces(with: "+"))
    }
}
