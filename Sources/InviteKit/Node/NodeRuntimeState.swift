import InviteKitRelay

/// What ``InviteKitNode/run()`` holds while it runs: one connection per relay URL, the live
/// subscriptions, and the wake-up signal the handlers use when they queued something.
struct NodeRuntimeState {
    /// One live subscription: the key it was opened for (relays and filter values), the pooled
    /// subscription and the task reading it.
    struct Feed {
        let key: [String]
        let subscription: PoolSubscription
        let reader: Task<Void, Never>

        func close() async {
            reader.cancel()
            await subscription.close()
        }
    }

    var connections: [String: any NostrRelayConnection] = [:]
    var giftWraps: Feed?
    var groupEvents: Feed?
    /// Set by a handler that queued work; consumed by the loop's next pause.
    var wakePending = false
    var waiter: CheckedContinuation<Void, Never>?
    /// A failure that ends the run (the store cannot be written).
    var failure: InviteKitError?
}
