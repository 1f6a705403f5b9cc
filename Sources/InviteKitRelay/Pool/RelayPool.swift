import InviteKitNostr

/// Any number of relays used together
/// ([NIP-01](https://github.com/nostr-protocol/nips/blob/master/01.md); NIP-65 style fan-out).
/// Publishing goes to every relay concurrently and reports each relay's outcome; subscriptions are
/// merged and deduplicated by event id. Relays' URLs must be distinct.
public final class RelayPool: Sendable {
    public let relays: [any NostrRelayConnection]

    public init(_ relays: [any NostrRelayConnection]) {
        self.relays = relays
    }

    /// A pool of ``WebSocketRelayClient``s, one per URL (duplicates removed).
    public convenience init(urls: [String], configuration: RelayClientConfiguration = RelayClientConfiguration()) {
        var seen = Set<String>()
        self.init(urls.filter { seen.insert($0).inserted }.map { WebSocketRelayClient(url: $0, configuration: configuration) })
    }

    public var urls: [String] { relays.map(\.url) }

    /// Publishes `event` to every relay at once. `succeeded` holds each relay that stored it;
    /// `failed` holds each other relay (the input is its URL) with a ``RelayError``: `rejected`
    /// (with the relay's message), `timedOut`, or the client's failure.
    public func publish(_ event: NostrEvent, timeout: Duration = .relayTimeout) async -> BatchResult<RelayAcceptance, String> {
        let outcomes = await withTaskGroup(of: (Int, PublishOutcome).self) { group in
            for (i, relay) in relays.enumerated() {
                group.addTask { (i, await relay.publish(event, timeout: timeout)) }
            }
            var out = [PublishOutcome?](repeating: nil, count: relays.count)
            for await (i, o) in group { out[i] = o }
            return out
        }
        var result = BatchResult<RelayAcceptance, String>()
        for (i, outcome) in outcomes.enumerated() {
            let url = relays[i].url
            switch outcome! {
            case .accepted(let ok): result.succeeded.append(RelayAcceptance(relay: url, ok: ok))
            default: result.failed.append(.init(input: url, error: outcome!.error!))
            }
        }
        return result
    }

    /// Subscribes on every relay; items arrive merged (see ``PoolSubscriptionItem``). A relay that
    /// cannot subscribe is reported as `.closed` for that relay, never thrown.
    public func subscribe(_ filters: [NostrFilter]) async -> PoolSubscription {
        let (stream, continuation) = AsyncStream<PoolSubscriptionItem>.makeStream(bufferingPolicy: .unbounded)
        let merger = SubscriptionMerger(relays: relays.map(\.url), continuation: continuation)
        var subs = [RelaySubscription]()
        for relay in relays {
            do {
                let sub = try await relay.subscribe(filters)
                subs.append(sub)
                let url = relay.url
                Task {
                    for await item in sub.items { await merger.forward(item, from: url) }
                    await merger.finished(url)
                }
            } catch {
                await merger.failed(relay.url, error)
                await merger.finished(relay.url)
            }
        }
        let opened = subs
        continuation.onTermination = { _ in
            Task { for s in opened { await s.close() } }
        }
        return PoolSubscription(items: stream) { for s in opened { await s.close() } }
    }

    /// REQ on every relay, collects until every relay sent `EOSE` (or ended) or `timeout` passes,
    /// then closes the subscriptions.
    public func fetch(_ filters: [NostrFilter], timeout: Duration = .relayTimeout) async -> RelayFetchResult {
        let sub = await subscribe(filters)
        let timer = Task {
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { await sub.close() }
        }
        var result = RelayFetchResult()
        var closed = [String: String]()
        loop: for await item in sub.items {
            switch item {
            case .event(let e, _): result.events.append(e)
            case .eose(let relay): result.completeRelays.insert(relay)
            case .invalidEvent(let e, _): result.invalidEvents.append(e)
            case .closed(let relay, let message): closed[relay] = message
            case .allEOSE: break loop
            }
        }
        timer.cancel()
        await sub.close()
        for url in urls where !result.completeRelays.contains(url) {
            if let message = closed[url] {
                result.incompleteRelays[url] = RelayError(.subscriptionClosed, message)
            } else {
                result.incompleteRelays[url] = RelayError(.timedOut, "no EOSE within the timeout")
            }
        }
        return result
    }

    /// Closes every relay.
    public func close() async {
        for r in relays { await r.close() }
    }
}
