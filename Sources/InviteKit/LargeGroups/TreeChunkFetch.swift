import InviteKitMLS
import InviteKitRelay
import InviteKitNostr

/// Fetching the ratchet-tree chunk events a Welcome names (PROTOCOL §5.11): by id and kind, from
/// the Welcome's relays first, then from the node's own relays, asking again for what is still
/// missing until `deadline` (relays may store the chunks a little after the Welcome arrives).
public enum TreeChunkFetch {
    /// Ids per filter: relays cap a REQ's results (commonly at 500).
    public static let idsPerFilter = 100
    /// Pause between rounds while chunks are missing.
    public static let retryInterval: Duration = .milliseconds(500)

    /// `{"ids":[…],"kinds":[447]}` filters covering `ids`.
    public static func filters(ids: [String]) -> [NostrFilter] {
        stride(from: 0, to: ids.count, by: idsPerFilter).map {
            NostrFilter(ids: Array(ids[$0..<min(ids.count, $0 + idsPerFilter)]), kinds: [RatchetTreeChunks.kind])
        }
    }

    /// The events `reference` names, from `pools` in order (typically the Welcome's relays, then
    /// one's own), until all are in or `deadline` passes. Returns what was found: events not named,
    /// or of another kind, are dropped; the join checks the rest and reports `tree_chunks_missing`
    /// for any still absent.
    public static func fetch(_ reference: RatchetTreeChunks.Reference, from pools: [RelayPool],
                             deadline: ContinuousClock.Instant, requestTimeout: Duration = .relayTimeout) async -> [NostrEvent] {
        let wanted = Set(reference.eventIDs)
        var found: [String: NostrEvent] = [:]
        while true {
            for pool in pools {
                let missing = reference.eventIDs.filter { found[$0] == nil }
                if missing.isEmpty { break }
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { break }
                let result = await pool.fetch(filters(ids: missing), timeout: min(requestTimeout, left))
                for e in result.events where wanted.contains(e.id) && e.kind == RatchetTreeChunks.kind { found[e.id] = e }
            }
            if found.count == wanted.count || ContinuousClock.now >= deadline { break }
            try? await Task.sleep(for: min(retryInterval, ContinuousClock.now.duration(to: deadline)))
        }
        return reference.eventIDs.compactMap { found[$0] }
    }
}
