import InviteKitNostr

/// Serializes the items of several relay subscriptions into one stream, dropping events whose id
/// was already delivered and announcing `.allEOSE` once every relay finished its stored events.
actor SubscriptionMerger {
    private let continuation: AsyncStream<PoolSubscriptionItem>.Continuation
    private var seen = Set<String>()
    private var waitingForEOSE: Set<String>
    private var running: Int
    private var announced = false

    init(relays: [String], continuation: AsyncStream<PoolSubscriptionItem>.Continuation) {
        self.continuation = continuation
        self.waitingForEOSE = Set(relays)
        self.running = relays.count
        if relays.isEmpty { continuation.yield(.allEOSE); continuation.finish(); announced = true }
    }

    func forward(_ item: SubscriptionItem, from relay: String) {
        switch item {
        case .event(let e):
            if seen.insert(e.id).inserted { continuation.yield(.event(e, relay: relay)) }
        case .eose:
            continuation.yield(.eose(relay: relay))
            done(relay)
        case .invalidEvent(let error):
            continuation.yield(.invalidEvent(error, relay: relay))
        case .closed(let message):
            continuation.yield(.closed(relay: relay, message: message))
            done(relay)
        }
    }

    func failed(_ relay: String, _ error: RelayError) {
        continuation.yield(.closed(relay: relay, message: error.description))
        done(relay)
    }

    /// A relay's stream ended.
    func finished(_ relay: String) {
        done(relay)
        running -= 1
        if running == 0 { continuation.finish() }
    }

    private func done(_ relay: String) {
        guard waitingForEOSE.remove(relay) != nil else { return }
        if waitingForEOSE.isEmpty, !announced {
            announced = true
            continuation.yield(.allEOSE)
        }
    }
}
