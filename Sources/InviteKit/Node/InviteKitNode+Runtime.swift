import InviteKitCrypto
import InviteKitNostr
import InviteKitRelay
import InviteKitStore

/// The runtime: what keeps a node in step with its relays while ``run()`` runs.
extension InviteKitNode {
    /// Starts ``run()`` in a task of its own and returns the task: cancel it (or call
    /// ``shutdown()``) to stop the loop, and await its `result` for what ``run()`` threw. The
    /// one place a node's loop is started: by ``NodeHome`` (its serving node and a one-request
    /// node), the benchmarks and apps alike.
    ///
    /// ```swift
    /// let runner = node.runInBackground()
    /// defer { runner.cancel() }
    /// ```
    public nonisolated func runInBackground() -> Task<Void, any Error> {
        Task { try await self.run() }
    }

    /// Runs the node until the calling task is cancelled: the relay connections (reconnects,
    /// backoff and NIP-42 as `WebSocketRelayClient` does them), a live subscription for this
    /// node's gift wraps (NIP-59; the first answer is the catch-up) and one for the kind-445
    /// events of every group it is in (MIP-03 `#h`, renewed as groups are created, joined, left
    /// or removed), the outbound queue with its retries (docs/storage.md §2), Commit → `OK` →
    /// Welcome (MIP-02), KeyPackage top-up (MIP-00) and the answers to pending joins.
    ///
    /// Returns when cancelled or shut down (``shutdown()``), after closing its connections;
    /// throws ``InviteKitError/Code/nodeShutDown`` when started after ``shutdown()``, and when the store can no
    /// longer be written (``InviteKitError/Code/storeFull`` and the like), and
    /// ``InviteKitError/Code/alreadyRunning`` when called twice. Relay failures do not end it:
    /// they are retried and reported as ``NodeEvent/relayProblem(relay:error:)``.
    ///
    /// In a task of its own: ``runInBackground()``.
    public func run() async throws(InviteKitError) {
        try requireOpen()
        guard runtime == nil else { throw InviteKitError(.alreadyRunning) }
        runtime = NodeRuntimeState()
        emit(.running(relays: (try? feedPlan().giftRelays) ?? []))
        while !Task.isCancelled, runtime?.failure == nil, !isShutDown {
            do {
                // KeyPackages are topped up first, so a fresh home's first round publishes them
                // with its relay lists (PROTOCOL §5.12.6). Queued events go out before the feeds
                // open: a fresh start's catch-up (every stored event of its groups) would
                // otherwise sit ahead of them on each connection.
                if configuration.keyPackageLowWater > 0 { try replenishKeyPackages() }
                try await flushDue()
                try await refreshFeeds()
                // A relay that never ends its stored events does not hold the others' back.
                if let deadline = runtime?.catchUpDeadline, ContinuousClock.now >= deadline { releaseCatchUp() }
                try retryDeferredWraps()
                try saveDirtyBuffers()
                try removeExpiredMessages()
                try scheduleSelfUpdates()
                try settleInviteLinks()
                try startInviteOfferChecks()
            } catch {
                report(error, eventID: nil)
            }
            // Passes close on their own deadlines, which may fall before the idle interval ends.
            var interval = configuration.idleInterval
            if let deadline = runConvergencePasses() { interval = min(interval, max(.zero, deadline - convergenceClock())) }
            // Welcomes wait for their Add to settle, which a pass resolved just now may decide.
            do {
                if let deadline = try settleWelcomeHolds() { interval = min(interval, max(.zero, deadline - convergenceClock())) }
            } catch {
                report(error, eventID: nil)
            }
            await pause(for: interval)
        }
        try? saveDirtyBuffers()
        let state = runtime
        runtime = nil
        state?.waiter?.resume()
        if let feed = state?.giftWraps { await feed.close() }
        if let feed = state?.groupEvents { await feed.close() }
        if let feed = state?.inviteInboxes { await feed.close() }
        for c in state?.connections.values.map({ $0 }) ?? [] { await c.close() }
        // Connections closed and nothing left in flight: a waiting ``shutdown()`` may go on.
        let waiters = runEndWaiters
        runEndWaiters = []
        for w in waiters { w.resume() }
        if let failure = state?.failure { throw failure }
    }

    /// Starts opening connections to `relays` in the background, for ``run()`` to use: a caller
    /// about to send (a command that sends one message) overlaps the relay handshake with its own
    /// work. Connections ``run()`` does not take are closed by ``shutdown()``.
    public func prepareConnections(to relays: [String]) {
        guard !isShutDown else { return }
        for url in relays where preparedConnections[url] == nil && runtime?.connections[url] == nil {
            let c = configuration.connector(url)
            preparedConnections[url] = c
            Task { await c.prepare() }
        }
    }

    /// Whether ``run()`` is running.
    public var isRunning: Bool { runtime != nil }

    /// Wakes the run loop: a handler or an API call queued something for the relays.
    func wake() {
        guard runtime != nil else { return }
        if let waiter = runtime?.waiter {
            runtime?.waiter = nil
            waiter.resume()
        } else {
            runtime?.wakePending = true
        }
    }

    /// Sleeps up to `duration`, or until ``wake()`` or cancellation.
    private func pause(for duration: Duration) async {
        guard runtime != nil, !Task.isCancelled else { return }
        if runtime?.wakePending == true {
            runtime?.wakePending = false
            return
        }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: duration)
            await self?.wake()
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                if runtime == nil || runtime?.wakePending == true {
                    c.resume()
                } else {
                    runtime?.waiter = c
                }
            }
        } onCancel: {
            Task { await self.wake() }
        }
        timer.cancel()
        runtime?.wakePending = false
    }

    /// A failure inside the loop or a handler: the store's end the run; anything else is one
    /// event that could not be used, or a relay problem, and the run goes on.
    func report(_ error: any Error, eventID: String?) {
        let mapped = InviteKitError.from(error)
        if error is StoreError, mapped.code != .groupNotFound, mapped.code != .notPermitted {
            runtime?.failure = mapped
            wake()
        } else if let eventID {
            emit(.eventRejected(eventID: eventID, error: mapped))
        } else {
            emit(.relayProblem(relay: "", error: mapped))
        }
    }

    // MARK: Subscriptions

    /// Where the node listens: gift wraps on its default relays, its pending joins' relays and
    /// its groups' relays (a Welcome comes to the group's relays); kind 445 for every group it
    /// was not removed from, on those groups' relays.
    func feedPlan() throws -> (giftRelays: [String], groupRelays: [String], tags: [String]) {
        // Groups from the registry (it mirrors their rows); only relays and joins are read.
        let (defaults, joins) = try store.read { tx in (try tx.identity.relays(), try tx.pendingJoins.active()) }
        let groups = Array(registry.values)
        let live = groups.filter { !$0.removed }
        // Open invite-link requests' code relays too (PROTOCOL §5.14.16).
        let gift = Set(defaults + joins.flatMap(\.relays) + groups.flatMap(\.relays) + (try inviteLinkFeedRelays())).sorted()
        return (gift, Set(live.flatMap(\.relays)).sorted(), live.map(\.nostrGroupID).sorted())
    }

    private func refreshFeeds() async throws {
        let plan = try feedPlan()
        // Copied out before each await: `runtime` is written by other calls while this one waits.
        if let old = runtime?.giftWraps, old.key != plan.giftRelays {
            runtime?.giftWraps = nil
            await old.close()
        }
        if runtime?.giftWraps == nil, !plan.giftRelays.isEmpty {
            let feed = await openFeed(key: plan.giftRelays, relays: plan.giftRelays, filters: [GiftWrapCatchUp.filter(for: publicKey)]) { node, event in
                await node.receive(giftWrap: event)
            }
            if runtime == nil { await feed.close() } else { runtime?.giftWraps = feed }
        }
        let groupKey = plan.groupRelays + ["#h"] + plan.tags
        if let old = runtime?.groupEvents, old.key != groupKey {
            runtime?.groupEvents = nil
            await old.close()
        }
        if runtime?.groupEvents == nil, !plan.tags.isEmpty, !plan.groupRelays.isEmpty {
            let filter = NostrFilter(kinds: [MarmotGroupEvent.kind]).tag("h", plan.tags)
            // A new feed's first answer is every stored event of its groups: held, then handled
            // oldest first. What an earlier feed still held goes first.
            releaseCatchUp()
            runtime?.heldCatchUp = []
            runtime?.catchUpDeadline = ContinuousClock.now + configuration.relayTimeout
            let feed = await openFeed(key: groupKey, relays: plan.groupRelays, filters: [filter], caughtUp: { node in
                await node.releaseCatchUp()
            }) { node, event in
                await node.receiveFromGroupFeed(event)
            }
            if runtime == nil { await feed.close() } else { runtime?.groupEvents = feed }
        }
        try await refreshInviteInboxFeed()
    }

    func openFeed(key: [String], relays: [String], filters: [NostrFilter],
                          caughtUp: (@Sendable (InviteKitNode) async -> Void)? = nil,
                          handle: @escaping @Sendable (InviteKitNode, NostrEvent) async -> Void) async -> NodeRuntimeState.Feed {
        let subscription = await RelayPool(relays.map { connection(for: $0) }).subscribe(filters)
        let reader = Task { [weak self] in
            for await item in subscription.items {
                guard let self else { return }
                switch item {
                case .event(let event, _):
                    await handle(self, event)
                case .allEOSE:
                    await caughtUp?(self)
                case .closed(let relay, let message):
                    await self.emit(.relayProblem(relay: relay, error: InviteKitError(.relayUnavailable, underlyingCode: message)))
                default:
                    break
                }
            }
            // Ended without being closed by the node (the connection was closed under it): the
            // next round opens the feed again, so the node never stays deaf.
            if !Task.isCancelled { await self?.feedEnded(key) }
        }
        return NodeRuntimeState.Feed(key: key, subscription: subscription, reader: reader)
    }

    private func feedEnded(_ key: [String]) {
        if runtime?.giftWraps?.key == key { runtime?.giftWraps = nil }
        if runtime?.groupEvents?.key == key { runtime?.groupEvents = nil }
        if runtime?.inviteInboxes?.key == key { runtime?.inviteInboxes = nil }
    }

    /// The run's connection to `url`, opened on first use.
    private func connection(for url: String) -> any NostrRelayConnection {
        if let c = runtime?.connections[url] { return c }
        let c = preparedConnections.removeValue(forKey: url) ?? configuration.connector(url)
        runtime?.connections[url] = c
        return c
    }

    func receive(giftWrap: NostrEvent) {
        do {
            switch try handleGiftWrap(giftWrap) {
            case nil, .ignored(.duplicate)?: break
            case .ignored(.commitPending)?:
                if (runtime?.deferredWraps.count ?? .max) < NodeRuntimeState.deferredLimit { runtime?.deferredWraps.append(giftWrap) }
            default: wake()
            }
        } catch {
            report(error, eventID: giftWrap.id)
        }
    }

    /// An event of the group feed: held while its catch-up lasts, handled at once after.
    private func receiveFromGroupFeed(_ event: NostrEvent) {
        if let held = runtime?.heldCatchUp, held.count < NodeRuntimeState.catchUpHoldLimit {
            runtime?.heldCatchUp?.append(event)
            return
        }
        releaseCatchUp()
        receive(groupEvent: event)
    }

    /// Ends the group feed's catch-up: what it held is handled oldest first.
    private func releaseCatchUp() {
        guard let held = runtime?.heldCatchUp else { return }
        runtime?.heldCatchUp = nil
        runtime?.catchUpDeadline = nil
        for event in Self.oldestFirst(held) { receive(groupEvent: event) }
    }

    /// A catch-up in the order its events were made: by `created_at`, and within one second in
    /// the relays' storage order. Relays answer newest first (NIP-01), so an answer that runs
    /// backwards in time is reversed before the stable sort.
    static func oldestFirst(_ events: [NostrEvent]) -> [NostrEvent] {
        let newestFirst = zip(events, events.dropFirst()).allSatisfy { $0.createdAt >= $1.createdAt }
        let arrival = newestFirst ? Array(events.reversed()) : events
        return arrival.enumerated().sorted { ($0.element.createdAt, $0.offset) < ($1.element.createdAt, $1.offset) }.map(\.element)
    }

    /// A live group event: a received current-profile Commit waits for its convergence pass;
    /// anything else is handled now.
    func receive(groupEvent: NostrEvent) {
        if holdForConvergence(groupEvent) { return }
        handleReceived(groupEvent: groupEvent)
    }

    func handleReceived(groupEvent: NostrEvent) {
        do {
            let queued = pendingCommits.count
            try handleGroupEvent(groupEvent)
            if pendingCommits.count != queued { wake() }
        } catch {
            report(error, eventID: groupEvent.id)
        }
    }

    /// Decides again the requests that waited for their group's Commit; keeps those still waiting.
    func retryDeferredWraps() throws {
        guard let waiting = runtime?.deferredWraps, !waiting.isEmpty else { return }
        var still: [NostrEvent] = []
        for wrap in waiting {
            if case .ignored(.commitPending)? = try handleGiftWrap(wrap) { still.append(wrap) } else { wake() }
        }
        runtime?.deferredWraps = still
    }

    // MARK: Outbound

    private func flushDue() async throws {
        guard runtime != nil else { return }
        let writes = try await flush { url in self.connection(for: url) }
        if writes > 0 { emit(.published(writes: writes)) }
    }

    /// Writes every due delivery to its relay and records each outcome (one transaction per
    /// step: `sent` before the write, then the `OK`, a refusal or a timeout). Relays are written
    /// in parallel, each relay's events in queue order (so one sender's messages arrive in the
    /// order they were sent). Rounds repeat while they make progress, so a Welcome released by
    /// its Commit's `OK` goes out in the same call. Returns the number of writes.
    func flush(maxRounds: Int = 4, connection: (String) -> (any NostrRelayConnection)?) async throws -> Int {
        var writes = 0
        let timeout = configuration.relayTimeout
        for _ in 0..<maxRounds {
            // Driven by hand, a Welcome held for its Commit is settled here (no window, no passes).
            if runtime == nil { _ = try settleWelcomeHolds() }
            var perRelay: [String: (connection: any NostrRelayConnection, jobs: [(eventID: String, purpose: OutboundPurpose, event: NostrEvent)])] = [:]
            var order: [String] = []
            for entry in try dueOutbound() {
                let event: NostrEvent
                do { event = try NostrEvent(json: entry.eventJSON) } catch {
                    for d in entry.deliveries { try relayAnswered(entry.eventID, relay: d.relay, accepted: false, message: "invalid: stored event does not parse") }
                    continue
                }
                for delivery in entry.deliveries {
                    guard let c = connection(delivery.relay) else { continue }
                    // The Commit is acknowledged and its Welcome queued (one committed transaction); the Welcome is not yet written.
                    if entry.purpose == .welcome { FailPoint.hit("node.flush.before_welcome") }
                    try eventSent(entry.eventID, relay: delivery.relay)
                    if perRelay[delivery.relay] == nil { order.append(delivery.relay) }
                    perRelay[delivery.relay, default: (c, [])].jobs.append((entry.eventID, entry.purpose, event))
                }
            }
            guard !order.isEmpty else { break }
            let results = await withTaskGroup(of: [(String, String, OutboundPurpose, PublishOutcome)].self) { group in
                for relay in order {
                    let (c, jobs) = perRelay[relay]!
                    group.addTask {
                        var out: [(String, String, OutboundPurpose, PublishOutcome)] = []
                        for job in jobs { out.append((job.eventID, relay, job.purpose, await c.publish(job.event, timeout: timeout))) }
                        return out
                    }
                }
                var all: [(String, String, OutboundPurpose, PublishOutcome)] = []
                for await part in group { all += part }
                return all
            }
            for (eventID, relay, purpose, outcome) in results {
                writes += 1
                // The relay has the event; its `OK` is not recorded yet: an uncertain publication
                // (`node.flush.before_commit_ok`, `node.flush.before_invite_link_request_ok`, …).
                FailPoint.hit("node.flush.before_\(purpose.rawValue)_ok")
                switch outcome {
                case .accepted(let ok):
                    try relayAnswered(eventID, relay: relay, accepted: true, message: ok.message)
                case .rejected(let ok):
                    try relayAnswered(eventID, relay: relay, accepted: false, message: ok.message)
                case .timedOut:
                    try deliveryTimedOut(eventID, relay: relay)
                    emit(.relayProblem(relay: relay, error: InviteKitError(.relayUnavailable, underlyingCode: "ok_timeout")))
                case .failed(let error):
                    try relayAnswered(eventID, relay: relay, accepted: false, message: "error: \(error.code.rawValue)")
                    emit(.relayProblem(relay: relay, error: InviteKitError.from(error)))
                }
            }
        }
        return writes
    }
}
