/// Where one event stands on one relay. `acked`, `rejected` and `givenUp` are final.
public enum DeliveryStatus: String, Sendable, CaseIterable {
    /// Waiting to be sent (first time, or again after a disconnect or a transient refusal).
    case queued
    /// Written to the relay's socket; waiting for its `OK` (NIP-01).
    case sent
    /// The relay answered `OK true` (or `OK false "duplicate: …"`: it already has the event).
    case acked
    /// The relay refused the event for good (`invalid:`, `blocked:`, `pow:`, `restricted:` …).
    case rejected
    /// The retry policy ran out.
    case givenUp = "given_up"

    public var isFinal: Bool { self == .acked || self == .rejected || self == .givenUp }
}
