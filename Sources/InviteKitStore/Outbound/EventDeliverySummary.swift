/// One event's status over all its relays, as a message's delivery status shows it.
public enum EventDeliverySummary: String, Sendable {
    case queued, sent, acked, failed
}
