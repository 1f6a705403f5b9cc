/// What a relay client reports about its connection, once per change (docs/relays.md §1), through
/// ``RelayClientConfiguration/statusObserver``.
///
/// A relay that accepts every socket and drops it at once changes nothing after the first
/// report: the client stays ``reconnecting(attempt:retryIn:reason:)`` and backs off further on
/// each attempt, rather than announcing every attempt.
public enum RelayConnectionStatus: Sendable, Hashable {
    /// The relay answered a request on the current connection (`OK`, `EVENT`, `EOSE` or
    /// `CLOSED`): from here the reconnect backoff starts over.
    case connected
    /// The connection failed or dropped while there is work; attempt `attempt` follows after
    /// `retryIn`. Reported when the relay stops being ``connected`` (or first fails), not again
    /// for each failed attempt.
    case reconnecting(attempt: Int, retryIn: Duration, reason: String)
    /// The client stopped trying: `maxAttempts` reached, or a drop with no work left (the next use
    /// opens a new connection).
    case disconnected(reason: String)

    /// Statuses of one kind are one state: a report is due only when the kind changes.
    var kind: Int {
        switch self {
        case .connected: return 0
        case .reconnecting: return 1
        case .disconnected: return 2
        }
    }
}
