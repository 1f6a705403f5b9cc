import InviteKitMLS
import InviteKitRelay
import InviteKitNostr

/// Publishing what a confirmed commit releases in a large group (PROTOCOL §5.11): every event is
/// checked against the budget before any relay sees it; the tree chunks go first and each must be
/// stored by at least one relay before any Welcome is sent (a Welcome naming chunks no relay has
/// would strand its joiner).
public enum LargeGroupPublish {
    /// What happened to a release.
    public struct Outcome: Sendable {
        /// Per chunk event, in order.
        public var chunks: [BatchResult<RelayAcceptance, String>] = []
        /// Per Welcome wrap, in order; empty when the Welcomes were withheld.
        public var welcomes: [BatchResult<RelayAcceptance, String>] = []
        /// True when a chunk was stored nowhere, so no Welcome was sent.
        public var welcomesWithheld = false
    }

    /// Publishes `release` to `pool`. Throws `event_too_large` (nothing published) when an event
    /// is over `budget`.
    public static func publish(_ release: MarmotCommitRelease, to pool: RelayPool, budget: EventBudget,
                               timeout: Duration = .relayTimeout) async throws(InviteKitError) -> Outcome {
        for e in release.events {
            try InviteKitError.mapping { try budget.check(e, e.kind == RatchetTreeChunks.kind ? "a tree chunk event" : "a Welcome gift wrap") }
        }
        var out = Outcome()
        for chunk in release.treeChunks {
            let r = await pool.publish(chunk, timeout: timeout)
            out.chunks.append(r)
            if r.successCount == 0 { out.welcomesWithheld = true; return out }
        }
        for w in release.welcomes { out.welcomes.append(await pool.publish(w.wrap, timeout: timeout)) }
        return out
    }
}
