import InviteKitCrypto
import NIOSSL

/// How a ``WebSocketRelayClient`` behaves.
public struct RelayClientConfiguration: Sendable {
    /// Used when ``NostrRelayConnection/publish(_:)`` is called without a timeout.
    public var publishTimeout: Duration
    public var reconnect: ReconnectPolicy
    /// Key used to answer NIP-42 `AUTH` challenges. `nil`: challenges are recorded but not answered,
    /// and `auth-required:` rejections are reported as they are.
    public var authSigner: Secp256k1.PrivateKey?
    /// Check the id and signature of every event a relay sends, and that it matches the filters
    /// (on by default: relays are not trusted).
    public var verifyIncomingEvents: Bool
    /// WebSocket ping interval; a ping left unanswered until the next closes the connection, which
    /// then reconnects. `nil`: no pings.
    public var pingInterval: Duration?
    /// TLS settings for `wss://` (swift-nio-ssl). `nil`: a client configuration with the system's
    /// trust roots and hostname verification.
    public var tlsConfiguration: TLSConfiguration?
    /// Called with the relay's URL and its new ``RelayConnectionStatus``, once per change (docs/relays.md
    /// §1), on the client's actor: keep it short and do not call back into the client.
    public var statusObserver: (@Sendable (String, RelayConnectionStatus) -> Void)?

    public init(publishTimeout: Duration = .relayTimeout, reconnect: ReconnectPolicy = ReconnectPolicy(),
                authSigner: Secp256k1.PrivateKey? = nil, verifyIncomingEvents: Bool = true,
                pingInterval: Duration? = .seconds(20), tlsConfiguration: TLSConfiguration? = nil,
                statusObserver: (@Sendable (String, RelayConnectionStatus) -> Void)? = nil) {
        self.publishTimeout = publishTimeout; self.reconnect = reconnect; self.authSigner = authSigner
        self.verifyIncomingEvents = verifyIncomingEvents; self.pingInterval = pingInterval
        self.tlsConfiguration = tlsConfiguration
        self.statusObserver = statusObserver
    }
}
