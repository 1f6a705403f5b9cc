/// One event's delivery to one relay: a row of `outbound_deliveries`.
public struct RelayDelivery: Sendable, Hashable {
    public var relay: String
    public var status: DeliveryStatus
    /// Times the event was written to this relay.
    public var attempts: Int
    /// When the scheduler should next act: send a queued event, or treat a missing `OK` as lost.
    public var nextAttemptAt: Int64
    /// The relay's refusal message, or why the policy gave up.
    public var reason: String?
    public var updatedAt: Int64

    public init(relay: String, status: DeliveryStatus = .queued, attempts: Int = 0, nextAttemptAt: Int64,
                reason: String? = nil, updatedAt: Int64) {
        self.relay = relay; self.status = status; self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt; self.reason = reason; self.updatedAt = updatedAt
    }

    /// A fresh delivery, due at once.
    public static func queued(relay: String, now: Int64) -> RelayDelivery {
        RelayDelivery(relay: relay, nextAttemptAt: now, updatedAt: now)
    }
}
