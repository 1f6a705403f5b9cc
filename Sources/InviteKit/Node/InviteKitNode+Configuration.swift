import InviteKitMLS
import InviteKitRelay
import InviteKitStore

extension InviteKitNode {
    /// Opens a connection to a relay URL. The default makes a `WebSocketRelayClient` (NIP-01,
    /// reconnects with backoff, NIP-42 when `authSigner` is set); tests pass an in-memory relay.
    public typealias RelayConnector = @Sendable (String) -> any NostrRelayConnection

    /// How a node runs: retries, timeouts, KeyPackage stock and how it reaches relays.
    public struct Configuration: Sendable {
        /// Delivery retries and backoff (docs/storage.md §2).
        public var retryPolicy: RetryPolicy
        /// How long a publish waits for the relay's `OK` (NIP-01) before it counts as timed out.
        public var relayTimeout: Duration
        /// How long ``InviteKitNode/run()`` sleeps when nothing wakes it (retries that fall due,
        /// KeyPackage top-up).
        public var idleInterval: Duration
        /// ``InviteKitNode/run()`` keeps at least this many unused KeyPackages published (MIP-00);
        /// 0 turns the top-up off.
        public var keyPackageLowWater: Int
        /// The bound on every event the node queues for a relay (PROTOCOL §5.11): adds split into
        /// Commits that fit, Welcomes go per member with the tree out of band when needed, and
        /// anything else over it is refused with ``InviteKitError/Code/tooLarge``.
        public var eventBudget: EventBudget
        /// How long a joiner waits for the ratchet-tree chunks a Welcome names (PROTOCOL §5.11)
        /// before the join fails with `welcome_failed` (`tree_chunks_missing`), keeping its KeyPackage.
        public var treeChunkTimeout: Duration
        /// Join a group whose admin added this node by its key (a Welcome with no pending join,
        /// MIP-02). Off by default: anyone who knows the node's key could otherwise make it join
        /// groups; a Welcome for a pending join is always used.
        public var acceptsUnsolicitedWelcomes: Bool
        /// When ``InviteKitNode/run()`` rotates this node's leaf in each group (PROTOCOL §5.16);
        /// `nil` turns the scheduled self-updates off.
        public var selfUpdatePolicy: NodeSelfUpdatePolicy?
        /// The collection window of a current-profile group's convergence pass (PROTOCOL §5.13,
        /// "Passes"): a received Commit is applied when its pass closes, after this much quiet or
        /// at the cap. Scheduling only: the branch a batch selects does not depend on it.
        public var convergenceTiming: ConvergencePassTiming
        /// How long a group change waits for the group's Commit slot (an own Commit in flight, a
        /// convergence pass collecting) before it fails with ``InviteKitError/Code/timedOut``
        /// (`commit_slot_busy`), having built nothing.
        public var commitSlotTimeout: Duration
        public var connector: RelayConnector

        public init(retryPolicy: RetryPolicy = .standard, relayTimeout: Duration = .relayTimeout, idleInterval: Duration = .seconds(1),
                    keyPackageLowWater: Int = 3, eventBudget: EventBudget = .standard, treeChunkTimeout: Duration = .seconds(30),
                    acceptsUnsolicitedWelcomes: Bool = false, selfUpdatePolicy: NodeSelfUpdatePolicy? = .standard,
                    convergenceTiming: ConvergencePassTiming = .v1, commitSlotTimeout: Duration = .seconds(120),
                    connector: @escaping RelayConnector = { WebSocketRelayClient(url: $0) }) {
            self.retryPolicy = retryPolicy; self.relayTimeout = relayTimeout; self.idleInterval = idleInterval
            self.keyPackageLowWater = keyPackageLowWater; self.eventBudget = eventBudget; self.treeChunkTimeout = treeChunkTimeout
            self.acceptsUnsolicitedWelcomes = acceptsUnsolicitedWelcomes
            self.selfUpdatePolicy = selfUpdatePolicy
            self.convergenceTiming = convergenceTiming
            self.commitSlotTimeout = commitSlotTimeout
            self.connector = connector
        }
    }
}
