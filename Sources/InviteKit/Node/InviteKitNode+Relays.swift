import InviteKitCrypto
import InviteKitNostr
import InviteKitRelay
import InviteKitStore

extension InviteKitNode {
    /// Writes every due delivery to its relay and records each outcome (one transaction per
    /// step: `sent` before the write, then the `OK`, a refusal or a timeout). Rounds repeat while
    /// they make progress, so a Welcome released by its Commit's `OK` goes out in the same call.
    /// Returns the number of writes.
    @discardableResult
    public func flushOutbound(to connections: [any NostrRelayConnection], timeout: Duration = .seconds(10), maxRounds: Int = 4) async throws -> Int {
        var writes = 0
        for _ in 0..<maxRounds {
            let due = try dueOutbound()
            var progressed = false
            for entry in due {
                let event: NostrEvent
                do { event = try NostrEvent(json: entry.eventJSON) } catch {
                    for d in entry.deliveries { try relayAnswered(entry.eventID, relay: d.relay, accepted: false, message: "invalid: stored event does not parse") }
                    continue
                }
                for delivery in entry.deliveries {
                    guard let connection = connections.first(where: { $0.url == delivery.relay }) else { continue }
                    // The Commit is acknowledged and its Welcome queued (one committed transaction); the Welcome is not yet written.
                    if entry.purpose == "welcome" { FailPoint.hit("node.flush.before_welcome") }
                    try eventSent(entry.eventID, relay: delivery.relay)
                    writes += 1
                    progressed = true
                    let outcome = await connection.publish(event, timeout: timeout)
                    // The relay has the Commit; its `OK` is not recorded yet.
                    if entry.purpose == "commit" { FailPoint.hit("node.flush.before_commit_ok") }
                    switch outcome {
                    case .accepted(let ok):
                        try relayAnswered(entry.eventID, relay: delivery.relay, accepted: true, message: ok.message)
                    case .rejected(let ok):
                        try relayAnswered(entry.eventID, relay: delivery.relay, accepted: false, message: ok.message)
                    case .timedOut:
                        try deliveryTimedOut(entry.eventID, relay: delivery.relay)
                    case .failed(let error):
                        try relayAnswered(entry.eventID, relay: delivery.relay, accepted: false, message: "error: \(error.code.rawValue)")
                    }
                }
            }
            if !progressed { break }
        }
        return writes
    }

    /// Fetches every gift wrap addressed to this node (no `since`: NIP-59 timestamps are
    /// randomized) and decides each; wraps decided before, even before a restart, are skipped by
    /// id without decrypting. Returns the decisions made now.
    @discardableResult
    public func catchUp(pool: RelayPool, timeout: Duration = .seconds(10)) async throws -> [JoinDecision] {
        let fetched = await pool.fetch([GiftWrapCatchUp.filter(for: publicKey)], timeout: timeout)
        let ordered = fetched.events.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        var decisions: [JoinDecision] = []
        for wrap in ordered {
            guard let d = try handleGiftWrap(wrap) else { continue }
            if case .ignored(.duplicate) = d { continue }
            decisions.append(d)
        }
        return decisions
    }
}
