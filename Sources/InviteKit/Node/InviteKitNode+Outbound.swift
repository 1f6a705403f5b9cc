import InviteKitMLS
import InviteKitNostr
import InviteKitStore

extension InviteKitNode {
    /// Queues `event` for `relays` in `tx`, after `gate` (when given) is stored by a relay, and
    /// while `heldFor` (a Commit's event id, when given) has not settled (PROTOCOL §5.13, "Welcome
    /// hold"). The
    /// one way the node hands anything to a relay, so the event budget (PROTOCOL §5.11) has one
    /// check: nothing over ``Configuration/eventBudget`` is queued (`too_large`).
    func enqueue(_ event: NostrEvent, purpose: OutboundPurpose, relays: [String], gate: String? = nil, heldFor: String? = nil,
                 in tx: StoreTransaction, now: Int64) throws {
        try configuration.eventBudget.check(event, "the \(purpose) event")
        _ = try tx.outbound.enqueue(eventID: event.id, eventJSON: event.jsonString, kind: event.kind, purpose: purpose, relays: relays,
                                    gateEventID: gate, heldForCommit: heldFor, now: now)
    }
}
