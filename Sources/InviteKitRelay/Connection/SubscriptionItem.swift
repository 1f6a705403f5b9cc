import InviteKitNostr

/// One thing a subscription delivers, in the order the relay sent it.
public enum SubscriptionItem: Sendable, Hashable {
    /// An event that verified (id and signature) and matches the subscription's filters.
    case event(NostrEvent)
    /// End of stored events; live events follow. Delivered once per subscription, even when a
    /// reconnect re-sends the REQ.
    case eose
    /// The relay sent an event that failed verification or does not match the filters. It is not
    /// passed on as an event; it is reported here so that nothing disappears silently.
    case invalidEvent(RelayError)
    /// The relay ended the subscription (`CLOSED`); the stream finishes after this.
    case closed(message: String)
}
