import Foundation

/// The outbound queue's rules, with no database and no sockets: `queued → sent → acked`, or
/// `rejected` with the relay's reason, or `given_up` after the ``RetryPolicy``. Final states
/// absorb every later event, so a late or repeated `OK` changes nothing.
package struct OutboundStateMachine: Sendable, Hashable {
    package var policy: RetryPolicy

    package init(policy: RetryPolicy = .standard) { self.policy = policy }

    /// The delivery after `event`.
    package func apply(_ event: DeliveryEvent, to delivery: RelayDelivery) -> RelayDelivery {
        guard !delivery.status.isFinal else { return delivery }
        var d = delivery
        switch event {
        case .sent(let now):
            d.status = .sent
            d.attempts += 1
            d.nextAttemptAt = now + policy.ackTimeout
            d.updatedAt = now
        case .ok(true, _, let now):
            d.status = .acked
            d.reason = nil
            d.updatedAt = now
        case .ok(false, let message, let now):
            switch Self.refusal(message) {
            case .duplicate:
                d.status = .acked
                d.reason = message
                d.updatedAt = now
            case .transient:
                d = retry(d, reason: message, now: now)
            case .permanent:
                d.status = .rejected
                d.reason = message
                d.updatedAt = now
            }
        case .ackTimeout(let now):
            guard d.status == .sent else { return d }
            d = retry(d, reason: "no OK within \(policy.ackTimeout)s", now: now)
        case .disconnected(let now):
            guard d.status == .sent else {
                d.nextAttemptAt = min(d.nextAttemptAt, now)
                return d
            }
            d = retry(d, reason: "connection lost", now: now, immediately: true)
        }
        return d
    }

    /// Whether the scheduler should write `delivery` now: queued and due, or sent and past its ack timeout.
    package func isDue(_ delivery: RelayDelivery, now: Int64) -> Bool {
        (delivery.status == .queued || delivery.status == .sent) && delivery.nextAttemptAt <= now
    }

    /// What one event's deliveries add up to: acknowledged once any relay stored it.
    package static func summary(_ deliveries: [RelayDelivery]) -> EventDeliverySummary {
        if deliveries.contains(where: { $0.status == .acked }) { return .acked }
        if deliveries.contains(where: { !$0.status.isFinal }) {
            return deliveries.contains(where: { $0.attempts > 0 }) ? .sent : .queued
        }
        return .failed
    }

    private func retry(_ delivery: RelayDelivery, reason: String, now: Int64, immediately: Bool = false) -> RelayDelivery {
        var d = delivery
        d.reason = reason
        d.updatedAt = now
        if d.attempts >= policy.maxAttempts {
            d.status = .givenUp
            return d
        }
        d.status = .queued
        d.nextAttemptAt = immediately ? now : now + policy.backoff(afterAttempts: d.attempts)
        return d
    }

    enum Refusal { case duplicate, transient, permanent }

    /// NIP-01 machine-readable prefixes: `duplicate:` means the relay already has the event.
    static func refusal(_ message: String) -> Refusal {
        let prefix = message.split(separator: ":", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch prefix {
        case "duplicate": return .duplicate
        case "rate-limited", "auth-required", "error": return .transient
        default: return .permanent
        }
    }
}
