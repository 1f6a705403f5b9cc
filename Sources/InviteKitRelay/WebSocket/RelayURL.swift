import Foundation

/// The check every relay URL passes before it is stored or dialled (NIP-01 relays are
/// `ws://` or `wss://` WebSocket endpoints; docs/cli.md §3): scheme ws or wss, a host, an
/// optional port in 1...65535, no user info or fragment, no whitespace or control characters,
/// at most ``maxLength`` bytes. `init --relay`, `--relay` options and `serve` ask it.
public enum RelayURL {
    /// The longest URL accepted, in UTF-8 bytes.
    public static let maxLength = 512

    /// Returns `url` unchanged when it is a usable relay URL; throws ``RelayError/Code/invalidURL``
    /// saying what is wrong (the URL itself is not echoed: it may hold anything).
    @discardableResult
    public static func validate(_ url: String) throws(RelayError) -> String {
        guard !url.isEmpty else { throw RelayError(.invalidURL, "empty relay URL") }
        guard url.utf8.count <= maxLength else { throw RelayError(.invalidURL, "relay URL longer than \(maxLength) bytes") }
        guard !url.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            throw RelayError(.invalidURL, "relay URL contains whitespace or control characters")
        }
        guard let c = URLComponents(string: url), let scheme = c.scheme?.lowercased(), scheme == "ws" || scheme == "wss" else {
            throw RelayError(.invalidURL, "relay URL must start with ws:// or wss://")
        }
        guard let host = c.host, !host.isEmpty else { throw RelayError(.invalidURL, "relay URL has no host") }
        guard c.user == nil, c.password == nil else { throw RelayError(.invalidURL, "relay URL must not carry a user name or password") }
        guard c.fragment == nil else { throw RelayError(.invalidURL, "relay URL must not have a #fragment") }
        if let port = c.port, !(1...65535).contains(port) { throw RelayError(.invalidURL, "relay URL port must be in 1...65535") }
        return url
    }

    /// Whether ``validate(_:)`` accepts `url`.
    public static func isValid(_ url: String) -> Bool { (try? validate(url)) != nil }
}
