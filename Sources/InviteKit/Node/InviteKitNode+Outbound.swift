import InviteKitMLS
import InviteKitNostr
import InviteKitStore

extension InviteKitNode {
    /// Queues `event` for `relays` in `tx`, after `gate` (when given) is stored by a relay. The
    /// one way the node hands anything to a relay, so the event budget (PROTOCOL §5.11) has one
    /// check: nothing over ``Configuration/eventBudget`` is queued (`too_large`).
    func enqueue(_ event: NostrEvent, purpose: OutboundPurpose, relays: [String], gate: String? = nil,
                 in tx: StoreTransaction, now: Int64) throws {
        try configuration.eventBudget.check(event, "the \(purpose) event")
        _ = try tx.outbound.enqueue(eventID: event.id, eventJSON: event.jsonString, kind: event.kind, purpose: purpose, relays: relays,
                                    gateEventID: gate, now: now)
    }
}
