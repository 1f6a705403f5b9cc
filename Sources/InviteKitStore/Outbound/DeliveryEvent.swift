/// What can happen to one event on one relay.
public enum DeliveryEvent: Sendable, Hashable {
    /// The event was written to the relay.
    case sent(now: Int64)
    /// The relay's `OK` (NIP-01): accepted or not, and its message.
    case ok(accepted: Bool, message: String, now: Int64)
    /// No `OK` came within the policy's ack timeout.
    case ackTimeout(now: Int64)
    /// The connection dropped (or came back): anything not acknowledged is due again now.
    case disconnected(now: Int64)
}
