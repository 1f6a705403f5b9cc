import InviteKitNostr

/// A relay in memory, for tests and the in-process demo. It behaves like a conforming NIP-01 relay:
/// it verifies every event (id and signature) and answers `OK false "invalid: ..."` when that
/// fails, stores by ``EventStore``'s rules, serves `REQ` with stored events + `EOSE` + live events,
/// and answers duplicates with `OK true "duplicate: ..."`.
///
/// Every client shares the one actor; there is no connection to lose. To test failure paths, set a
/// ``Policy`` that rejects, swallows or discards events (a swallowed event never gets an `OK`: the
/// publisher times out; a discarded one gets `OK true` and is gone).
public actor InMemoryRelay: NostrRelayConnection {
    /// What the relay does with an event that passed verification.
    public enum Decision: Sendable, Hashable {
        case accept
        /// `OK false` with this message (use a NIP-01 prefix, e.g. `"blocked: no thanks"`).
        case reject(String)
        /// No `OK` at all: the publisher times out. The event is not stored.
        case swallow
        /// `OK true`, yet the event is neither stored nor delivered: a relay that acknowledges
        /// what it then drops (a kind it does not keep, a purge).
        case discard
    }

    public typealias Policy = @Sendable (NostrEvent) -> Decision

    public nonisolated let url: String
    private var store = EventStore()
    private var policy: Policy?
    private var subscriptions: [String: (filters: [NostrFilter], continuation: AsyncStream<SubscriptionItem>.Continuation)] = [:]
    private var nextSubscription = 0
    /// Every event offered to `publish`, with what the relay answered, in order.
    public private(set) var log: [(event: NostrEvent, outcome: PublishOutcome)] = []

    public init(url: String = "memory://relay") {
        self.url = url
    }

    /// Installs (or removes, with `nil`) the acceptance policy.
    public func setPolicy(_ policy: Policy?) { self.policy = policy }

    /// Stored events matching `filters`, newest first.
    public func events(matching filters: [NostrFilter]) -> [NostrEvent] { store.query(filters) }

    /// Every stored event, newest first.
    public var storedEvents: [NostrEvent] { store.query([NostrFilter()]) }

    public func publish(_ event: NostrEvent, timeout: Duration) async -> PublishOutcome {
        let outcome = accept(event)
        log.append((event, outcome))
        if case .timedOut = outcome { try? await Task.sleep(for: timeout) }
        return outcome
    }

    private func accept(_ event: NostrEvent) -> PublishOutcome {
        do { try event.verify() } catch {
            return .rejected(OKMessage(eventId: event.id, accepted: false, message: "invalid: \(error.detail)"))
        }
        switch policy?(event) ?? .accept {
        case .accept: break
        case .reject(let message): return .rejected(OKMessage(eventId: event.id, accepted: false, message: message))
        case .swallow: return .timedOut(wasSent: true)
        case .discard: return .accepted(OKMessage(eventId: event.id, accepted: true, message: ""))
        }
        switch store.insert(event) {
        case .stored, .ephemeral:
            for (_, sub) in subscriptions where sub.filters.anyMatches(event) { sub.continuation.yield(.event(event)) }
            return .accepted(OKMessage(eventId: event.id, accepted: true, message: ""))
        case .duplicate:
            return .accepted(OKMessage(eventId: event.id, accepted: true, message: "duplicate: already have this event"))
        case .superseded:
            return .accepted(OKMessage(eventId: event.id, accepted: true, message: "duplicate: a newer version is stored"))
        case .deleted:
            return .rejected(OKMessage(eventId: event.id, accepted: false, message: "blocked: deleted by its author"))
        }
    }

    public func subscribe(_ filters: [NostrFilter]) async throws(RelayError) -> RelaySubscription {
        nextSubscription += 1
        let id = "mem-\(nextSubscription)"
        let (stream, continuation) = AsyncStream<SubscriptionItem>.makeStream(bufferingPolicy: .unbounded)
        for e in store.query(filters) { continuation.yield(.event(e)) }
        continuation.yield(.eose)
        subscriptions[id] = (filters, continuation)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return RelaySubscription(id: id, items: stream) { [weak self] in await self?.unsubscribe(id) }
    }

    /// Ends one subscription (as `CLOSE` would).
    public func unsubscribe(_ id: String) {
        subscriptions.removeValue(forKey: id)?.continuation.finish()
    }

    /// Ends the subscription with `CLOSED` and `message`, as a relay may at any time.
    public func closeSubscription(_ id: String, message: String) {
        guard let sub = subscriptions.removeValue(forKey: id) else { return }
        sub.continuation.yield(.closed(message: message))
        sub.continuation.finish()
    }

    public var subscriptionCount: Int { subscriptions.count }

    public func close() async {
        for (_, sub) in subscriptions { sub.continuation.finish() }
        subscriptions.removeAll()
    }
}
