/// A live subscription: its id, its items, and a way to end it (sends `CLOSE`).
/// The item stream finishes after `.closed`, after ``close()``, or when the client is closed.
public struct RelaySubscription: Sendable {
    public let id: String
    public let items: AsyncStream<SubscriptionItem>
    let onClose: @Sendable () async -> Void

    public init(id: String, items: AsyncStream<SubscriptionItem>, onClose: @escaping @Sendable () async -> Void) {
        self.id = id
        self.items = items
        self.onClose = onClose
    }

    /// Ends the subscription. Idempotent.
    public func close() async { await onClose() }
}
