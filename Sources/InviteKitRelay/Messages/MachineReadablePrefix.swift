/// The machine-readable prefix of an `OK` or `CLOSED` message
/// ([NIP-01](https://github.com/nostr-protocol/nips/blob/master/01.md), "OK" and "CLOSED"; NIP-42 adds
/// `auth-required`). The text before the first `:`; a message without one has no prefix.
public enum MachineReadablePrefix: Sendable, Hashable, CustomStringConvertible {
    case duplicate
    case pow
    case blocked
    case rateLimited
    case invalid
    case restricted
    case mute
    case error
    case authRequired
    /// A prefix NIP-01 does not list, kept verbatim.
    case other(String)

    /// Parses the prefix of `message`, or `nil` when it has none.
    public init?(message: String) {
        guard let colon = message.firstIndex(of: ":") else { return nil }
        let word = String(message[..<colon])
        guard !word.isEmpty, word.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || ($0 >= 0x30 && $0 <= 0x39) }) else {
            return nil
        }
        switch word {
        case "duplicate": self = .duplicate
        case "pow": self = .pow
        case "blocked": self = .blocked
        case "rate-limited": self = .rateLimited
        case "invalid": self = .invalid
        case "restricted": self = .restricted
        case "mute": self = .mute
        case "error": self = .error
        case "auth-required": self = .authRequired
        default: self = .other(word)
        }
    }

    public var description: String {
        switch self {
        case .duplicate: "duplicate"
        case .pow: "pow"
        case .blocked: "blocked"
        case .rateLimited: "rate-limited"
        case .invalid: "invalid"
        case .restricted: "restricted"
        case .mute: "mute"
        case .error: "error"
        case .authRequired: "auth-required"
        case .other(let s): s
        }
    }
}
