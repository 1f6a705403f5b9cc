import Foundation

/// A parsed `ws://` / `wss://` relay URL.
struct RelayEndpoint: Sendable, Hashable {
    let scheme: String
    let host: String
    let port: Int
    let path: String
    let query: String?

    init(_ url: String) throws(RelayError) {
        guard let c = URLComponents(string: url), let scheme = c.scheme?.lowercased(), scheme == "ws" || scheme == "wss" else {
            throw RelayError(.invalidURL, "relay URL must start with ws:// or wss://")
        }
        guard let host = c.host, !host.isEmpty else { throw RelayError(.invalidURL, "relay URL has no host") }
        self.scheme = scheme
        self.host = host
        self.port = c.port ?? (scheme == "wss" ? 443 : 80)
        self.path = c.path.isEmpty ? "/" : c.path
        self.query = c.query
    }
}
