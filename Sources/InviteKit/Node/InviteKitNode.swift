import Foundation
import InviteKitCrypto
import InviteKitInvites
import InviteKitMLS
import InviteKitNostr
import InviteKitStore

/// One node: identity, durable store, groups, join decisions, the outbound queue and, while
/// ``run()`` runs, the relay connections. An app holds one per home, as it would hold a
/// database pool, and reads what happens from ``events(bufferingNewest:)``.
///
/// Every state change is one store transaction, and nothing a transaction decided is handed to a
/// relay before it commits (docs/storage.md §3). ``run()`` drives the relays: live subscriptions for
/// this node's gift wraps and its groups' kind-445 events, the outbound queue with its retries,
/// the Commit → `OK` → Welcome order, KeyPackage top-up and the answers to pending joins. Every
/// public method throws ``InviteKitError``.
///
/// Groups: each row holds the group's serialized Marmot state (see `NodeGroupEngine`), saved in
/// the transaction that changed it and read back when the node opens.
public actor InviteKitNode {
    public nonisolated let home: StoreHome
    public nonisolated let publicKey: Secp256k1.XOnlyPublicKey
    public nonisolated let configuration: Configuration
    nonisolated let store: Store
    nonisolated let keyPackages: StoreKeyPackageStore

    let hub = NodeEventHub()
    /// The home's lock, held from `init` until ``shutdown()`` (or the node's end): dropping the
    /// only reference releases the `flock` at once, so a new node can open the home.
    private var lock: HomeLock?
    /// Set by ``shutdown()``: every later call throws ``InviteKitError/Code/nodeShutDown``.
    public private(set) var isShutDown = false
    /// ``shutdown()`` calls waiting for a running ``run()`` to return.
    var runEndWaiters: [CheckedContinuation<Void, Never>] = []
    private let key: Secp256k1.PrivateKey
    let processor: JoinRequestProcessor
    private let consumedTags: TransactionConsumedTagStore
    let machine: OutboundStateMachine
    private let clock: @Sendable () -> Int64
    private let rng: RandomSource
    /// Own Commits waiting for a relay's `OK`, by Commit event id (mirrors the waiting
    /// `pending_commits` rows).
    var pendingCommits: [String: NodePendingCommit] = [:]
    /// Acknowledged own Adds whose Welcomes wait to settle, by Commit event id (mirrors the
    /// `outbound.held_for_commit` values; PROTOCOL §5.13, "Welcome hold").
    var welcomeHolds: [String: NodeWelcomeHold] = [:]
    /// Welcome wraps whose ratchet-tree chunks are being fetched (PROTOCOL §5.11): a wrap a relay
    /// sends again meanwhile starts no second fetch.
    var treeChunkFetches: Set<String> = []
    /// Every group this node hosts or joined, by private group id: the one registry. An entry
    /// changes only after the transaction that stored its new state committed.
    var registry: [String: NodeGroupEntry] = [:]
    /// Connections opened by ``prepareConnections(to:)`` that ``run()`` has not taken yet.
    var preparedConnections: [String: any NostrRelayConnection] = [:]
    /// Inbox relays (kind 10050) of members being added, by hex key, read by ``addMembers(_:to:timeout:)``:
    /// their Welcomes go there as well as to the group's relays (PROTOCOL §5.12.6). In memory
    /// only: a Welcome released after a restart goes to the group's relays.
    var welcomeInboxes: [String: [String]] = [:]
    /// Groups whose stored state did not restore, by id, with why (issue 31, D6): the node opens
    /// without them, so other groups, invites and ``run()`` keep working, and every call naming
    /// one of them throws this error.
    public private(set) var damagedGroups: [String: InviteKitError] = [:]
    /// The runtime's state while ``run()`` runs (`nil` otherwise).
    var runtime: NodeRuntimeState?
    /// The time convergence passes are scheduled by (PROTOCOL §5.13, "Passes"): the monotonic
    /// clock, or the conformance runner's step clock (``conformanceSetConvergenceClock(_:)``).
    var convergenceClock: @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    /// Told each group state the node keeps; set only by the conformance runner
    /// (``conformanceObserveStates(_:)``).
    var stateObserver: (@Sendable (String, MarmotMLSGroup) -> Void)?

    var signingKey: Secp256k1.PrivateKey { key }
    var randomSource: RandomSource { rng }
    func currentTime() -> Int64 { clock() }
    func emit(_ event: NodeEvent) { hub.yield(event) }

    /// A new stream of what this node does from now on: every subscriber sees every event
    /// emitted after it subscribed. A subscriber more than `limit` events behind loses the
    /// oldest ones it has not read (the store still has them: read the history or the groups).
    public nonisolated func events(bufferingNewest limit: Int = 4096) -> AsyncStream<NodeEvent> {
        hub.subscribe(bufferingNewest: limit)
    }
    /// Records a group's new engine state (after its transaction committed); a new id is a group
    /// this node just joined.
    func setGroup(_ group: MarmotMLSGroup, groupID: String, relays: [String] = [], name: String? = nil) {
        if registry[groupID] == nil {
            registry[groupID] = NodeGroupEntry(group: group, inviteTag: nil, relays: relays, name: name)
        } else {
            registry[groupID]?.group = group
        }
    }
    /// The groups this node hosts, as the join decisions see them.
    var hostedGroups: [HostedGroup] { registry.values.compactMap(\.hosted) }
    func storedRow(for group: HostedGroup) -> StoredGroup { row(for: group) }

    /// Creates the identity of a new home: the key file (0600, written first), then the identity
    /// row and default relays in one transaction. `secret` imports a key; otherwise a new one.
    /// Throws ``InviteKitError`` only, like every public call of the node (issue 30).
    @discardableResult
    public static func initialize(home: StoreHome, relays: [String], importing secret: SecureBytes? = nil,
                                  now: Int64 = UnixTime.now(), rng: RandomSource = SystemRandom()) throws(InviteKitError) -> Secp256k1.XOnlyPublicKey {
        try InviteKitError.mapping { try createIdentity(home: home, relays: relays, importing: secret, now: now, rng: rng) }
    }

    private static func createIdentity(home: StoreHome, relays: [String], importing secret: SecureBytes?, now: Int64,
                                       rng: RandomSource) throws -> Secp256k1.XOnlyPublicKey {
        try home.create()
        let lock = try HomeLock(path: home.lockPath)
        let store = try Store.open(path: home.databasePath)
        if try store.read({ tx in try tx.identity.publicKey() }) != nil || home.exists {
            throw StoreError(.identityExists, "\(home.directory) already has an identity")
        }
        let key = try secret.map { s in try s.withUnsafeBytes { try Secp256k1.PrivateKey(rawRepresentation: $0) } } ?? Secp256k1.PrivateKey(using: rng)
        try IdentityKeyFile.write(key.rawRepresentation, to: home.identityKeyPath)
        // The account's relay lists go out with the node's first run (PROTOCOL §5.12.6): KeyPackages
        // are looked up on its kind-10002 write relays and Welcomes sent to its kind-10050 inbox.
        let lists = relays.isEmpty ? [] : [try RelayList.outbox(relays, createdAt: now).signed(by: key, using: rng),
                                           try RelayList.inbox(relays, createdAt: now).signed(by: key, using: rng)]
        try store.write { tx in
            try tx.identity.create(publicKey: key.publicKey.rawRepresentation, now: now)
            try tx.identity.setRelays(relays)
            for list in lists {
                _ = try tx.outbound.enqueue(eventID: list.id, eventJSON: list.jsonString, kind: list.kind, purpose: .relayList,
                                            relays: relays, gateEventID: nil, now: now)
            }
        }
        withExtendedLifetime(lock) {}
        return key.publicKey
    }

    /// Opens an initialized home and takes its lock: a second node on the same home throws
    /// `StoreError/Code/locked`.
    public init(home: StoreHome, configuration: Configuration = Configuration(), clock: @escaping @Sendable () -> Int64 = { UnixTime.now() },
                rng: RandomSource = SystemRandom()) throws(InviteKitError) {
        do {
            try self.init(opening: home, configuration: configuration, clock: clock, rng: rng)
        } catch {
            throw InviteKitError.from(error)
        }
    }

    private init(opening home: StoreHome, configuration: Configuration, clock: @escaping @Sendable () -> Int64, rng: RandomSource) throws {
        let (store, lock) = try home.openExclusive()
        let secret = try IdentityKeyFile.read(from: home.identityKeyPath)
        let key = try secret.withUnsafeBytes { try Secp256k1.PrivateKey(rawRepresentation: $0) }
        let stored = try store.read { tx in try tx.identity.publicKey() }
        if let stored {
            guard stored == key.publicKey.rawRepresentation else {
                throw StoreError(.identityUnavailable, "identity.key does not match this home's database")
            }
        } else {
            // `init` died between writing the key file and the row: finish it.
            try store.write { tx in try tx.identity.create(publicKey: key.publicKey.rawRepresentation, now: clock()) }
        }
        self.home = home
        self.store = store
        self.lock = lock
        self.key = key
        self.publicKey = key.publicKey
        self.clock = clock
        self.rng = rng
        self.configuration = configuration
        self.machine = OutboundStateMachine(policy: configuration.retryPolicy)
        self.keyPackages = StoreKeyPackageStore(store: store, clock: clock)
        let tags = TransactionConsumedTagStore(store: store, clock: clock)
        self.consumedTags = tags
        self.processor = JoinRequestProcessor(inviter: key, consumedTags: tags, clock: clock, rng: rng, budget: configuration.eventBudget)
        // One damaged group does not keep the home from opening: it is set aside with its error.
        var restored: [(StoredGroup, (group: MarmotMLSGroup, savedTree: RatchetTree?))] = []
        for row in try store.read({ tx in try tx.groups.all() }) {
            do {
                restored.append((row, try store.read { tx in try Self.restoreGroup(row, in: tx) }))
            } catch {
                damagedGroups[row.id] = Self.damage(error, groupID: row.id)
            }
        }
        for (row, (restoredGroup, savedTree)) in restored {
            var group = restoredGroup
            // A state of an older format carried its buffered events: they move to the table
            // (with the new format) the next time the group is saved; the table's come first.
            // Otherwise the table is read when the group's first event arrives.
            let held = group.buffer.events
            group.buffer = MarmotEventBuffer()
            if !held.isEmpty {
                for json in try store.read({ tx in try tx.bufferedEvents.all(groupID: row.id) }) {
                    if let e = try? NostrEvent(json: json) { group.buffer.append(e) }
                }
                for e in held { group.buffer.append(e) }
            }
            registry[row.id] = NodeGroupEntry(group: group, inviteTag: group.isAdmin ? row.currentTag : nil, relays: row.relays, name: row.name,
                                              removed: row.removedAt != nil)
            registry[row.id]?.savedTree = savedTree
            registry[row.id]?.bufferLoaded = !held.isEmpty
        }
        // When each joined group was joined: history from before it is not reported as evicted.
        for join in try store.read({ tx in try tx.pendingJoins.all() }) where join.state == .joined {
            if let id = join.groupID, registry[id]?.inviteTag == nil { registry[id]?.joinedAt = join.updatedAt }
        }
        // A Welcome an admin sent unasked (or a rejoin) has no pending join: its processed mark says when.
        for (id, at) in try store.read({ tx in try tx.processedRequests.lastWelcomeByGroup() }) where registry[id]?.inviteTag == nil {
            let joinedAt = max(registry[id]?.joinedAt ?? at, at)
            registry[id]?.joinedAt = joinedAt
        }
        // A Commit stored by a relay just before a crash is confirmed by the OK that a re-send
        // gets after the restart, so the engine's pending commit comes back from its row.
        for waiting in try store.read({ tx in try tx.pendingCommits.waiting() }) {
            pendingCommits[waiting.commitEventID] = try NodePendingCommit(restoring: waiting)
        }
        for row in try store.read({ tx in try Self.storedWelcomeHolds(in: tx) }) {
            welcomeHolds[row.commitEventID] = NodeWelcomeHold(groupID: row.groupID, epoch: row.epoch, start: ContinuousClock.now,
                                                              timing: configuration.convergenceTiming)
        }
        // This node holds the home's lock, so no connection of an earlier process is alive: what
        // it had written and not heard back about is due again at once (docs/storage.md §2).
        let (restartedAt, outboundRules) = (clock(), machine)
        try store.write { tx in try tx.outbound.requeueSent(now: restartedAt, machine: outboundRules) }
    }

    /// What `invitekit id` prints, read without taking the lock (a node may be serving).
    public static func summary(home: StoreHome) throws(InviteKitError) -> (npub: String, relays: [String], groups: Int) {
        try InviteKitError.mapping {
            let store = try Store.open(path: home.databasePath)
            return try store.read { tx in
                guard let pk = try tx.identity.publicKey() else { throw StoreError(.identityUnavailable, "this home has no identity") }
                return (NIP19.npub(try Secp256k1.XOnlyPublicKey(rawRepresentation: pk)), try tx.identity.relays(), try tx.groups.count())
            }
        }
    }

    /// Ends the node: stops ``run()`` (it returns once its current round ended and its
    /// connections closed), ends every event stream, closes connections ``run()`` never took and
    /// releases the home's lock, all before it returns, so a new node (in this process or
    /// another) opens the home at once. Every later call throws
    /// ``InviteKitError/Code/nodeShutDown``; calling it again does nothing.
    public func shutdown() async {
        guard !isShutDown else { return }
        isShutDown = true
        if runtime != nil {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                runEndWaiters.append(c)
                wake()
            }
        }
        hub.finish()
        let unused = preparedConnections.values
        preparedConnections = [:]
        for c in unused { await c.close() }
        // The only reference: the `flock` is released here, not when the app drops the node.
        lock = nil
    }

    /// The check every public call makes first: a shut-down node does nothing more.
    func requireOpen() throws(InviteKitError) {
        if isShutDown { throw InviteKitError(.nodeShutDown) }
    }

    // MARK: Groups

    /// Creates a group with this node as its admin (MIP-01) and stores it; the group's relays
    /// default to the node's. ``run()`` subscribes to it from its next round.
    ///
    /// `profile` (default current) is the group's for life (PROTOCOL §5.12); `outOfBandTree`
    /// negotiates InviteKit's out-of-band ratchet tree for groups too large for an inline one
    /// (PROTOCOL §5.11; only InviteKit members can then join).
    public func createGroup(name: String?, relays: [String]? = nil, profile: MarmotWireProfile = .current,
                            outOfBandTree: Bool = false) throws(InviteKitError) -> NodeGroup {
        try requireOpen()
        let hosted = try InviteKitError.mapping { try createHostedGroup(name: name, relays: relays, profile: profile, outOfBandTree: outOfBandTree) }
        wake()
        return try group(hosted.conversationID)
    }

    func createHostedGroup(name: String?, relays: [String]? = nil, profile: MarmotWireProfile = .current,
                           outOfBandTree: Bool = false) throws -> HostedGroup {
        let group = try HostedGroup.create(creator: key, name: name, relays: try relays ?? defaultRelays(), profile: profile,
                                           outOfBandTree: outOfBandTree, now: clock(), rng: rng)
        try store.write { tx in try insertGroup(row(for: group), group: group.group, in: tx) }
        registry[group.conversationID] = NodeGroupEntry(group)
        stateCommitted(group.group, groupID: group.conversationID)
        return group
    }

    /// A hosted group (created in this run or before a restart).
    func hostedGroup(_ id: String) -> HostedGroup? { registry[id]?.hosted }

    /// Rotates a group's invite tag (PROTOCOL §3.7): every earlier invite is refused from now on.
    /// Returns the new tag.
    @discardableResult
    public func revokeInvites(groupID: String) throws(InviteKitError) -> String {
        try requireOpen()
        return try InviteKitError.mapping {
            let id = try groupRow(groupID).id
            guard hostedGroup(id) != nil else { throw InviteKitError(.notPermitted, underlyingCode: "not_hosted") }
            let tag = InviteTag.generate(using: rng)
            try store.write { tx in try tx.groups.setTag(id: id, tag: tag, now: clock()) }
            // Only after the row changed: a failed write leaves the old tag in force everywhere.
            registry[id]?.inviteTag = tag
            return tag
        }
    }

    func recordInvite(_ invite: StoredInvite) throws {
        try store.write { tx in try tx.invites.insert(invite) }
    }

    private func row(for group: HostedGroup) -> StoredGroup {
        StoredGroup(id: group.conversationID, nostrGroupID: group.nostrGroupID, name: group.name, engine: HostedGroup.engineName,
                    engineVersion: HostedGroup.engineVersion, state: group.serializedState() ?? SecureBytes(zeroedCount: 0),
                    epoch: group.epoch, currentTag: group.currentTag, relays: group.relays, updatedAt: clock())
    }

    // MARK: Join requests (inviter)

    /// Decides one gift wrap addressed to this node (PROTOCOL §8.3), durably: the decision, the
    /// single-use consumption and the reply or Commit commit in one transaction, and a wrap or
    /// request already decided (also before a restart) is ignored without a second reply.
    /// `nil` when the wrap does not open for this node.
    @discardableResult
    func handleGiftWrap(_ wrap: NostrEvent) throws -> JoinDecision? {
        if try store.read({ tx in try tx.processedRequests.contains(wrapID: wrap.id) }) { return .ignored(.duplicate) }
        guard let gift = try? GiftWrap.unwrap(wrap, recipient: key) else { return nil }
        // Invite links, joiner side (PROTOCOL §5.14.16): an admin's status, or a Welcome for a
        // KeyPackage an invite-link request offered, checked against the consented preview.
        if gift.rumor.kind == InviteLinkNostr.statusKind {
            try handleInviteLinkStatus(gift, wrap: wrap)
            return .ignored(.notAJoinRequest)
        }
        if gift.rumor.kind == MarmotProfile.welcomeKind, try handleInviteLinkWelcome(gift, wrap: wrap) { return .ignored(.notAJoinRequest) }
        if let message = try? SealedMessage(gift) {
            switch message {
            case .welcome, .inviteJoinError:
                if try handleJoinReply(gift, wrap: wrap, message: message) { return .ignored(.notAJoinRequest) }
            case .joinRequest, .other:
                break
            }
        }
        let now = clock()
        let replyRelays = try defaultRelays()
        let busy = busyGroups
        let hosted = hostedGroups
        let decision: JoinDecision = try store.write { tx in
            if try tx.processedRequests.contains(rumorID: gift.rumor.id) { return .ignored(.duplicate) }
            let decision = processor.process(gift, hosted: hosted, busy: busy) { key throws(InviteError) in
                try consumedTags.consume(key, in: tx, requestID: gift.rumor.id)
            }
            // Not decided: the same wrap is decided on a later catch-up, after the group's Commit resolved.
            if case .ignored(.commitPending) = decision { return decision }
            var groupID: String?
            switch decision {
            case .rejected(let reply, _):
                try enqueue(reply, purpose: .joinError, relays: replyRelays, in: tx, now: now)
            case .accepted(let pending):
                groupID = pending.conversationID
                try queue(.join(pending), requestID: gift.rumor.id, relays: hostedGroup(pending.conversationID)?.relays ?? replyRelays,
                          in: tx, now: now)
            case .needsApproval(let approval):
                groupID = approval.conversationID
                // What `approveJoin` needs, durable with the decision: the request survives a restart.
                try tx.pendingApprovals.insert(PendingApprovalRecord(requestID: gift.rumor.id, wrapID: wrap.id, groupID: approval.conversationID,
                                                                     joiner: gift.sender.rawRepresentation,
                                                                     keyPackageEventJSON: approval.request.keyPackage.jsonString, createdAt: now))
            case .ignored, .dropped:
                break
            }
            _ = try tx.processedRequests.record(ProcessedRequest(rumorID: gift.rumor.id, wrapID: wrap.id, outcome: Self.outcome(decision),
                                                                 groupID: groupID, processedAt: now))
            tx.failPoint("node.decide.before_commit")
            return decision
        }
        if case .accepted(let pending) = decision { pendingCommits[pending.event.id] = .join(pending) }
        switch decision {
        case .ignored(.duplicate), .ignored(.commitPending): break
        case .needsApproval(let approval):
            emit(.approvalRequested(groupID: approval.conversationID, member: gift.sender, requestID: gift.rumor.id))
        default:
            // A refusal names its invite's tag: the hosted group with that tag is the one asked for.
            var groupID = Self.groupID(of: decision)
            if case .rejected(_, let error) = decision { groupID = hosted.first { $0.currentTag == error.inviteTag }?.conversationID }
            emit(.joinRequestDecided(requestID: gift.rumor.id, groupID: groupID, outcome: JoinRequestOutcome(decision)))
        }
        return decision
    }

    static func groupID(of d: JoinDecision) -> String? {
        switch d {
        case .accepted(let p): return p.conversationID
        case .needsApproval(let a): return a.conversationID
        default: return nil
        }
    }

    /// The `processed_requests` outcome text (docs/storage.md §6).
    static func outcome(_ d: JoinDecision) -> String { JoinRequestOutcome(d).description }

    // MARK: Messages

    // MARK: Outbound

    /// What to write to relays now (gated events only after their gate's `OK`).
    func dueOutbound(now: Int64? = nil) throws -> [OutboundEntry] {
        let now = now ?? clock()
        return try store.write { tx in
            // A `sent` delivery past its ack timeout is requeued (or given up) before it is due again.
            for entry in try tx.outbound.due(now: now) {
                for d in entry.deliveries where d.status == .sent {
                    try tx.outbound.apply(.ackTimeout(now: now), eventID: entry.eventID, relay: d.relay, machine: machine)
                }
            }
            return try tx.outbound.due(now: now).map { entry in
                var e = entry
                e.deliveries = entry.deliveries.filter { machine.isDue($0, now: now) && $0.status == .queued }
                return e
            }.filter { !$0.deliveries.isEmpty }
        }
    }

    func eventSent(_ eventID: String, relay: String) throws {
        try store.write { tx in try tx.outbound.apply(.sent(now: clock()), eventID: eventID, relay: relay, machine: machine) }
    }

    /// No `OK` came in time: requeued with backoff, or given up after the policy's attempts.
    func deliveryTimedOut(_ eventID: String, relay: String) throws {
        let event: NodeEvent? = try store.write { tx in
            let before = try tx.messages.get(eventID: eventID)
            try tx.outbound.apply(.ackTimeout(now: clock()), eventID: eventID, relay: relay, machine: machine)
            return try Self.messageTransition(from: before, in: tx)
        }
        if let event { emit(event) }
    }

    /// What an own message's status change means for the app: delivered or given up.
    static func messageTransition(from before: StoredMessage?, in tx: StoreTransaction) throws -> NodeEvent? {
        guard let before, before.outgoing, let after = try tx.messages.get(eventID: before.eventID), after.status != before.status else { return nil }
        switch after.status {
        case .acked: return .messageDelivered(groupID: after.groupID, eventID: after.eventID)
        case .failed: return .messageFailed(groupID: after.groupID, eventID: after.eventID)
        default: return nil
        }
    }

    /// A relay's `OK` for an event, in one transaction with what it causes: an own message
    /// becomes `acked`; an own pending Commit is applied and its Welcomes are queued behind it
    /// (`confirm`), or rolled back when every relay refused it.
    func relayAnswered(_ eventID: String, relay: String, accepted: Bool, message: String) throws {
        let now = clock()
        var emitted: [NodeEvent] = []
        var next: NodePendingCommit?
        var resolved = false
        var applied: (String, MarmotMLSGroup)?
        try store.write { tx in
            let before = try tx.messages.get(eventID: eventID)
            let delivery = try tx.outbound.apply(.ok(accepted: accepted, message: message, now: now), eventID: eventID, relay: relay, machine: machine)
            if accepted, let m = try tx.messages.get(eventID: eventID), m.outgoing, m.status != .acked {
                try tx.messages.setStatus(eventID: eventID, .acked)
            }
            if let change = try Self.messageTransition(from: before, in: tx) { emitted.append(change) }
            guard let waiting = try tx.pendingCommits.get(commitEventID: eventID), waiting.status == .waiting else { return }
            if delivery.status == .acked, let pending = pendingCommits[eventID] {
                let confirmed = try confirm(pending, acknowledgedBy: relay, waiting: waiting, in: tx, now: now)
                (emitted, next, applied) = (emitted + confirmed.events, confirmed.next, confirmed.group.map { (pending.groupID, $0) })
                resolved = true
            } else if try tx.outbound.summary(eventID: eventID) == .failed {
                try tx.pendingCommits.resolve(commitEventID: eventID, as: .rolledBack, now: now)
                // No relay stored the Commit, so the join never happened: a single-use invite is
                // not used up, and the joiner gets the request's one reply (PROTOCOL §8.2).
                if case .join(let join)? = pendingCommits[eventID], let requestID = waiting.requestID {
                    try tx.consumedTags.release(requestID: requestID)
                    if let reply = processor.refusal(of: join, reason: "no relay stored the group's commit") {
                        try enqueue(reply, purpose: .joinError, relays: try tx.identity.relays(), in: tx, now: now)
                    }
                }
                // An approved Whistle request whose Commit nobody took can be approved again.
                try tx.pendingApprovals.reopen(commitEventID: eventID)
                emitted.append(.commitRolledBack(groupID: waiting.groupID, commitEventID: eventID,
                                                 lostAdds: pendingCommits[eventID]?.addedMembers ?? []))
                resolved = true
            }
        }
        if let (groupID, group) = applied {
            setGroup(group, groupID: groupID)
            stateCommitted(group, groupID: groupID)
            if case .join(let join)? = pendingCommits[eventID] { holdWelcomes(of: eventID, groupID: groupID, builtOn: join.commit.fromEpoch) }
        }
        if resolved { pendingCommits[eventID] = nil }
        if let next { pendingCommits[next.event.id] = next }
        for e in emitted { emit(e) }
    }
}
