import InviteKitNostr

/// One relay, however it is reached. ``InMemoryRelay`` (tests, demos) and ``WebSocketRelayClient``
/// (NIP-01 over WebSocket) implement it; ``RelayPool`` combines any number of them.
public protocol NostrRelayConnection: Sendable {
    /// A stable name for outcomes and logs: the relay URL.
    var url: String { get }

    /// Sends `EVENT` and waits for the relay's `OK` for at most `timeout`
    /// ([NIP-01](https://github.com/nostr-protocol/nips/blob/master/01.md), "OK").
    func publish(_ event: NostrEvent, timeout: Duration) async -> PublishOutcome

    /// Sends `REQ`: matching stored events, then `.eose`, then live events until closed.
    func subscribe(_ filters: [NostrFilter]) async throws(RelayError) -> RelaySubscription

    /// Ends every subscription, fails pending publishes with `clientClosed`, and disconnects.
    func close() async

    /// Opens the connection ahead of its first use, where the transport has one, and returns
    /// once it is open or failed (a failure is met again, and reported, by that first use).
    func prepare() async
}

extension NostrRelayConnection {
    /// Nothing to open.
    public func prepare() async {}

    /// Publishes with the default timeout, ``Swift/Duration/relayTimeout``.
    public func publish(_ event: NostrEvent) async -> PublishOutcome {
        await publish(event, timeout: .relayTimeout)
    }
}
