/// Counters a ``WebSocketRelayClient`` keeps, for tests and diagnostics.
public struct RelayClientStats: Sendable, Hashable {
    /// Successful WebSocket openings (1 + reconnects).
    public var connections = 0
    /// Failed openings and dropped connections.
    public var disconnects = 0
    /// Relay messages that could not be parsed (each also kept in ``WebSocketRelayClient/protocolErrors``).
    public var malformedMessages = 0
    /// Events that failed verification or their filters (also delivered as `.invalidEvent`).
    public var invalidEvents = 0
    /// Duplicate events suppressed within one subscription (e.g. re-sent after a reconnect).
    public var duplicateEvents = 0
    /// Events for a subscription this client no longer holds (late after `CLOSE`).
    public var eventsForUnknownSubscriptions = 0
    /// `OK`s that matched no event in flight (late after a timeout).
    public var unmatchedOKs = 0
    /// Events re-sent after a reconnect because their `OK` had not arrived.
    public var resentEvents = 0
    /// NIP-42 `AUTH` events sent.
    public var authAttempts = 0

    public init() {}
}
