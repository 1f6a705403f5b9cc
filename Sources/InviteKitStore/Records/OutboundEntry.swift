/// An event waiting in the outbound queue, with where it stands on each relay.
public struct OutboundEntry: Sendable, Hashable {
    public var eventID: String
    /// The signed event, NIP-01 JSON, exactly as it goes on the wire.
    public var eventJSON: String
    public var kind: Int
    /// Why it is sent (`commit`, `welcome`, `join_error`, `message`, `key_package`, …), for logs.
    public var purpose: OutboundPurpose
    /// Held back until this event is acknowledged by some relay (a Welcome waits for its Commit).
    public var gateEventID: String?
    public var createdAt: Int64
    public var deliveries: [RelayDelivery]

    public init(eventID: String, eventJSON: String, kind: Int, purpose: OutboundPurpose, gateEventID: String? = nil,
                createdAt: Int64, deliveries: [RelayDelivery]) {
        self.eventID = eventID; self.eventJSON = eventJSON; self.kind = kind; self.purpose = purpose
        self.gateEventID = gateEventID; self.createdAt = createdAt; self.deliveries = deliveries
    }
}
