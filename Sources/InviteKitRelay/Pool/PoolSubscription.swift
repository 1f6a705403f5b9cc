/// A subscription across every relay of a pool, merged and deduplicated by event id.
public struct PoolSubscription: Sendable {
    public let items: AsyncStream<PoolSubscriptionItem>
    let onClose: @Sendable () async -> Void

    /// Ends the subscription on every relay. Idempotent.
    public func close() async { await onClose() }
}
