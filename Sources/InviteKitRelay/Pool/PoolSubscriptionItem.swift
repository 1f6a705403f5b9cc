import InviteKitNostr

/// One thing a pool subscription delivers.
public enum PoolSubscriptionItem: Sendable, Hashable {
    /// An event, the first time any relay delivered it (later copies are suppressed by id).
    case event(NostrEvent, relay: String)
    case eose(relay: String)
    /// Every relay has sent `EOSE` or ended the subscription: stored events are done.
    case allEOSE
    case invalidEvent(RelayError, relay: String)
    /// A relay ended its part of the subscription (`CLOSED`, or it could not subscribe at all).
    case closed(relay: String, message: String)
}
