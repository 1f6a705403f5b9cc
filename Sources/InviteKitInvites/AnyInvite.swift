import InviteKitCrypto

/// Either invite format, recognised from user input (a link or a bare code).
public enum AnyInvite: Hashable, Sendable {
    case whistle(InviteCode)
    case signed(SignedInvite)

    /// `whistle://` links are Whistle codes; `https://` and `convos://` links are signed invites.
    /// A bare string is told apart by its first decoded byte: a Whistle code is base64 of JSON
    /// (`{`, possibly after JSON whitespace), a signed invite starts with `0x0A`, `0x1F` or
    /// `0x78`.
    public init(parsing input: String) throws(InviteError) {
        let s = input.trimmingASCIIWhitespace()
        if let (scheme, _) = PercentEncoding.splitScheme(s) {
            if scheme == "whistle" { self = .whistle(try InviteCode(url: String(s))); return }
            self = .signed(try SignedInvite(link: String(s)))
            return
        }
        if s.utf8.count <= InviteCode.maxInputLength,
           let bytes = Base64.decodeLenient(String(s)),
           bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == UInt8(ascii: "{") {
            self = .whistle(try InviteCode(code: String(s)))
            return
        }
        self = .signed(try SignedInvite(slug: String(s)))
    }

    /// `whistle` or `signed`, as the CLI prints it.
    public var formatName: String {
        switch self {
        case .whistle: return "whistle"
        case .signed: return "signed"
        }
    }
}
