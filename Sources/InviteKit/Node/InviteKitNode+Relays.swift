import InviteKitCrypto
import InviteKitNostr
import InviteKitRelay
import InviteKitStore

/// Single steps of the runtime over given connections, for tests that drive a node by hand.
extension InviteKitNode {
    /// One ``flush(maxRounds:connection:)`` over `connections` (by URL).
    @discardableResult
    func flushOutbound(to connections: [any NostrRelayConnection], maxRounds: Int = 4) async throws -> Int {
        try await flush(maxRounds: maxRounds) { url in connections.first { $0.url == url } }
    }

    /// Fetches every gift wrap addressed to this node (no `since`: NIP-59 timestamps are
    /// randomized) and decides each; wraps decided before, even before a restart, are skipped by
    /// id without decrypting. Returns the decisions made now.
    @discardableResult
    func catchUp(pool: RelayPool, timeout: Duration = .relayTimeout) async throws -> [JoinDecision] {
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
