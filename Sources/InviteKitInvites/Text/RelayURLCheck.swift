/// The shape check InviteKit applies to relay URLs it writes into invites: `ws://` or
/// `wss://`, a host, no whitespace or control characters, at most 2048 bytes. Reading stays
/// tolerant: relays in received invites are data, used only by a client that connects to them.
public enum RelayURLCheck {
    /// Longest relay URL written into an invite.
    public static let maxLength = 2048

    /// `true` when `url` may be written into an invite.
    public static func isValid(_ url: String) -> Bool {
        let u = Array(url.utf8)
        guard u.count <= maxLength, !u.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { return false }
        let lower = url.lowercased()
        let rest: Substring
        if lower.hasPrefix("wss://") { rest = lower.dropFirst(6) } else if lower.hasPrefix("ws://") { rest = lower.dropFirst(5) } else { return false }
        guard let first = rest.first else { return false }
        return first != "/" && first != "?" && first != "#"
    }
}
