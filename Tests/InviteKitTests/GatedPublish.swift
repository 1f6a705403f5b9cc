import InviteKitRelay
import InviteKitNostr

/// "Publish X; only once a relay has stored it, release Y." (The node gates through its
/// `outbound.gate_event_id`, PROTOCOL.md §9.3; this helper drives the same rule over a bare pool
/// in tests.)
///
/// Marmot requires this of a Commit and its Welcome (Marmot MIP-02; PROTOCOL.md §5.6): a Welcome sent before any
/// relay acknowledged the Commit lets the joiner reach epoch N+1 while members, who never see the
/// Commit, stay at N: a fork. So the Welcome is built/sent by `release`, which runs only after at
/// least one relay answered `OK` (`OKMessage/isStored`) for the gating event.
enum GatedPublish {
    enum Outcome<Released: Sendable>: Sendable {
        /// At least one relay stored the gating event; `value` is what `release` returned.
        case released(gate: BatchResult<RelayAcceptance, String>, value: Released)
        /// No relay stored it; `release` was not called. The batch says what each relay did.
        case withheld(gate: BatchResult<RelayAcceptance, String>)

        var gate: BatchResult<RelayAcceptance, String> {
            switch self {
            case .released(let g, _), .withheld(let g): return g
            }
        }

        var releasedValue: Released? { if case .released(_, let v) = self { return v } else { return nil } }
    }

    /// Publishes `gate` to the pool and runs `release` only if at least one relay stored it.
    static func publish<Released: Sendable>(
        _ gate: NostrEvent, to pool: RelayPool, timeout: Duration = .relayTimeout,
        thenRelease release: () async throws -> Released
    ) async rethrows -> Outcome<Released> {
        let result = await pool.publish(gate, timeout: timeout)
        guard result.successCount > 0 else { return .withheld(gate: result) }
        return .released(gate: result, value: try await release())
    }

    /// Publishes `gate`; if a relay stored it, publishes each of `followers` (e.g. the gift-wrapped
    /// Welcomes) and returns their per-relay results in order.
    static func publish(
        _ gate: NostrEvent, thenPublish followers: [NostrEvent], to pool: RelayPool, timeout: Duration = .relayTimeout
    ) async -> Outcome<[BatchResult<RelayAcceptance, String>]> {
        await publish(gate, to: pool, timeout: timeout) {
            var out = [BatchResult<RelayAcceptance, String>]()
            for f in followers { out.append(await pool.publish(f, timeout: timeout)) }
            return out
        }
    }
}
