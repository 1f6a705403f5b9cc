import InviteKitNostr

/// What a one-shot fetch (REQ until `EOSE`, then `CLOSE`) got from a pool.
public struct RelayFetchResult: Sendable {
    /// Deduplicated by id, in arrival order.
    public var events: [NostrEvent] = []
    /// Relays that sent `EOSE`.
    public var completeRelays: Set<String> = []
    /// Relays that did not finish: `CLOSED`, could not subscribe, or the timeout hit first.
    public var incompleteRelays: [String: RelayError] = [:]
    /// Events some relay sent that failed verification or the filters (not in ``events``).
    public var invalidEvents: [RelayError] = []

    public init() {}

    /// True when at least one relay delivered all its stored events.
    public var isCompleteSomewhere: Bool { !completeRelays.isEmpty }
}
