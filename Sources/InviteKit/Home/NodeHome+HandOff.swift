import Foundation
import InviteKitMLS
import InviteKitStore

/// Handing work to the node that owns a home, from any process.
extension NodeHome {
    /// Runs `request` on the home's node and returns its answer (``NodeHomeRequest`` says what
    /// each answers), then waits as `settle` says, all within `timeout`:
    ///
    /// - When this process can take the home's lock, it opens a node for the request (waiting
    ///   while another process holds the home for a request of its own), runs the request, drives
    ///   the node's ``InviteKitNode/run()`` until the request settled or the time is up, and shuts
    ///   the node down.
    /// - When a process serves the home (``serve(_:onReady:onRequests:)``), the request is handed to it
    ///   through the inbox, and its answer is waited for; the serving node does the relay work.
    ///
    /// Reaching the deadline is not an error once the request was answered: the work stays queued
    /// in the home, and the reads (``messageStatus(of:)``, ``commitStatus(of:)``,
    /// ``deliveryStatus(of:)``, ``pendingJoin(_:)``) say how far it got.
    ///
    /// Throws the request's own error (as the node threw it, also from the serving process);
    /// `timed_out` (`request_not_taken`) when the serving node did not take the request in time (it
    /// was withdrawn and never runs); `node_shut_down` (`request_abandoned`) when the serving
    /// process took it and stopped before answering (the request may have run); `store_locked`
    /// when another process held the home for the whole time without serving it.
    public func perform(_ request: NodeHomeRequest, settle: NodeHomeSettle = .answered, timeout: Duration,
                        eventBudget: EventBudget = .standard) async throws(InviteKitError) -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            let node: InviteKitNode
            do throws(InviteKitError) {
                node = try InviteKitNode(home: home, configuration: Self.oneRequestConfiguration(deadline: deadline, budget: eventBudget))
            } catch where error.code == .storeLocked {
                if isServed {
                    let answer = try await submit(request, deadline: deadline)
                    try await waitUntilSettled(request, answer: answer, settle: settle, driving: nil, deadline: deadline)
                    return answer
                }
                // Another process holds the home for a request of its own: wait for it.
                guard ContinuousClock.now < deadline else {
                    throw InviteKitError(.storeLocked, underlyingCode: error.underlyingCode,
                                         context: "another process is using \(home.directory); try again")
                }
                try await Self.pause(.milliseconds(50))
                continue
            }
            do throws(InviteKitError) {
                let answer = try await node.perform(request)
                try await waitUntilSettled(request, answer: answer, settle: settle, driving: node, deadline: deadline)
                await node.shutdown()
                return answer
            } catch {
                await node.shutdown()
                throw error
            }
        }
    }

    /// Hands `request` to the serving node and waits for its answer. The hand-off is exact: the
    /// server takes a request by renaming `<id>.json` to `<id>.taken`, and this side withdraws it
    /// at the deadline by unlinking `<id>.json`. Only one of the two can succeed, so a withdrawn
    /// request never runs, and a taken one is always waited for: the server answers most without
    /// waiting on a relay, and marks a long one as alive every ``heartbeatInterval``.
    func submit(_ request: NodeHomeRequest, deadline: ContinuousClock.Instant) async throws(InviteKitError) -> String {
        let id = UUID().uuidString
        let base = (inbox as NSString).appendingPathComponent(id)
        let json: [UInt8]
        do {
            json = Array(try JSONSerialization.data(withJSONObject: request.fields, options: [.sortedKeys]))
        } catch {
            throw InviteKitError(.unknown, underlyingCode: "inbox_encoding")
        }
        try NodeHomeFiles.write(json, to: base + ".json")
        var withdrawn = false
        // After it took the request, the server answers within this grace; past it, it died mid-way.
        var grace = ContinuousClock.now + .seconds(30)
        while true {
            if let data = NodeHomeFiles.read(base + ".done") {
                unlink(base + ".done")
                return try NodeHomeAnswer.decode(data)
            }
            if !withdrawn, ContinuousClock.now >= deadline {
                if unlink(base + ".json") == 0 {
                    throw InviteKitError(.timedOut, underlyingCode: "request_not_taken", context: "the node serving \(home.directory) did not take the request in time")
                }
                withdrawn = true
                grace = ContinuousClock.now + .seconds(30)
            }
            if withdrawn, ContinuousClock.now >= grace, !NodeHomeFiles.exists(base + ".done") {
                // Still running (a long request): the server touches its mark every few seconds.
                guard NodeHomeFiles.isFresh(base + ".taken", within: Self.heartbeatInterval * 3) else {
                    throw InviteKitError(.nodeShutDown, underlyingCode: "request_abandoned",
                                         context: "the node serving \(home.directory) took the request and stopped before answering; check the home's state before retrying")
                }
                grace = ContinuousClock.now + .seconds(1)
            }
            // Polling the inbox: a file is the only channel between the two processes.
            try await Self.pause(.milliseconds(20))
        }
    }

    /// Waits until `request` settled as `settle` says, or until `deadline`. With `driving`, that
    /// node's ``InviteKitNode/run()`` runs meanwhile (this process holds the home) and each of
    /// its events triggers a look; without, the serving process does the work and this one looks
    /// at the database every 50 ms (a read without the lock: the only view it has of another
    /// process's node).
    func waitUntilSettled(_ request: NodeHomeRequest, answer: String, settle: NodeHomeSettle, driving node: InviteKitNode?,
                          deadline: ContinuousClock.Instant) async throws(InviteKitError) {
        if settle == .answered { return }
        let store = try InviteKitError.mapping { try Store.open(path: home.databasePath) }
        if try Self.look(store, request, answer: answer, settle: settle, drivenHere: node != nil) { return }
        let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let watcher = node.map { n in
            let events = n.events()
            return Task { for await _ in events { wake.yield() } }
        }
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(50))
                wake.yield()
            }
        }
        defer {
            watcher?.cancel()
            ticker.cancel()
            wake.finish()
        }
        let watch = { () async -> InviteKitError? in
            var next = wakes.makeAsyncIterator()
            while ContinuousClock.now < deadline, !Task.isCancelled {
                guard await next.next() != nil else { return nil }
                do throws(InviteKitError) {
                    if try Self.look(store, request, answer: answer, settle: settle, drivenHere: node != nil) { return nil }
                } catch {
                    return error
                }
            }
            return nil
        }
        let failure: InviteKitError?
        if let node { failure = await node.whileRunning { _ in await watch() } } else { failure = await watch() }
        if let failure { throw failure }
    }

    /// One look at the database: whether the request settled.
    private static func look(_ store: Store, _ request: NodeHomeRequest, answer: String, settle: NodeHomeSettle,
                             drivenHere: Bool) throws(InviteKitError) -> Bool {
        try InviteKitError.mapping {
            try store.read { tx in try isSettled(request, answer: answer, settle: settle, drivenHere: drivenHere, in: tx) }
        }
    }

    /// Whether `request` (answered `answer`) settled as `settle` says, in the home's database.
    static func isSettled(_ request: NodeHomeRequest, answer: String, settle: NodeHomeSettle, drivenHere: Bool,
                          in tx: StoreTransaction) throws -> Bool {
        func published() throws -> Bool {
            if let m = try tx.messages.get(eventID: answer), m.outgoing { return m.status == .acked || m.status == .failed }
            // An answer the queue does not hold was never to be published: nothing to wait for.
            let s = try tx.outbound.summary(eventID: answer) ?? .failed
            return s == .acked || s == .failed
        }
        switch settle {
        case .answered: return true
        case .published: return try published()
        case .decided:
            switch request {
            case .send, .react, .reply, .edit, .delete, .leave: return try published()
            case .createLink:
                // The answer is the code; the link's descriptor is released by its policy Commit.
                guard drivenHere, let code = try? InviteCodeV1(bech32m: answer),
                      let commit = try tx.inviteLinks.get(linkID: Hex.encode(code.linkID))?.commitEventID else { return true }
                return try tx.outbound.unfinishedReleased(by: commit) == 0
            case .decideLinkRequest(_, _, approve: false): return true
            case .add, .remove, .update, .approve, .retention, .rename, .describe, .promote, .demote, .relays, .disband, .revokeLink, .decideLinkRequest:
                let status = try tx.pendingCommits.get(commitEventID: answer)?.status ?? .waiting
                // Driving the node itself, the process also stays until the Commit's released
                // events (tree chunks, Welcomes) reached a relay: nobody else would send them now.
                if drivenHere, status == .confirmed { return try tx.outbound.unfinishedReleased(by: answer) == 0 }
                return status != .waiting
            case .join: return try tx.pendingJoins.get(id: answer).map { $0.state != .requested } ?? true
            case .invite, .revoke, .decline, .mute, .pin, .markRead: return true
            }
        }
    }
}
