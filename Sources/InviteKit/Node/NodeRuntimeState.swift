import InviteKitMLS
import InviteKitNostr
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
    /// Invite links (PROTOCOL §5.14.15): the feed of request wraps to this node's link inboxes,
    /// and the requests an automatic approval is working on.
    var inviteInboxes: Feed?
    var inviteAutoApprovals: Set<String> = []
    /// A pass of offer checks is running (``InviteKitNode/startInviteOfferChecks()``).
    var offerChecking = false
    /// Set by a handler that queued work; consumed by the loop's next pause.
    var wakePending = false
    var waiter: CheckedContinuation<Void, Never>?
    /// Join requests left undecided while their group had a Commit in flight (PROTOCOL §8.3
    /// rule 12a): the live subscription does not deliver them again, so the loop retries them
    /// (at most ``deferredLimit``; a restart re-reads them from the relays anyway).
    var deferredWraps: [NostrEvent] = []
    static let deferredLimit = 1024
    /// A failure that ends the run (the store cannot be written).
    var failure: InviteKitError?
    /// The group feed's stored events (its catch-up), held until every relay sent `EOSE` or
    /// ``catchUpDeadline`` passed, then handled oldest first (``InviteKitNode/feed(since:)``);
    /// `nil` once the feed is live.
    var heldCatchUp: [NostrEvent]?
    var catchUpDeadline: ContinuousClock.Instant?
    /// At most this many events wait for the catch-up's end; more are handled as they come.
    static let catchUpHoldLimit = 20_000
    /// Each current-profile group's convergence pass: the received Commits it holds until the
    /// pass closes (PROTOCOL §5.13, "Passes"). In memory: the events are not marked processed, so
    /// after a restart the relays' catch-up brings them back into a new pass.
    var passes: [String: ConvergencePass<NostrEvent>] = [:]
}
