import InviteKitCrypto
import InviteKitNostr

/// Splitting a large add into Commits that each fit the budget (PROTOCOL §5.11). The caller
/// (the node) drives the loop: build the next Commit, publish it, wait for a relay's OK,
/// ``MarmotGroup/confirmPublished(_:acknowledgedBy:wrappingWelcomesFrom:budget:now:rng:)``,
/// publish the release, then ask for the next one with the KeyPackages not yet added.
extension MarmotGroup where Engine == MLSGroupState {
    /// The next Commit of a large add: the longest prefix of `keyPackages` whose Commit event fits
    /// `budget` (its Welcomes fit by construction: per member, tree out of band when needed).
    /// Sizes are estimated from the KeyPackages, then each candidate is built and measured; a
    /// candidate over the budget shrinks in proportion. Throws `event_too_large` when not even
    /// one KeyPackage fits (the commit's UpdatePath alone is over the budget), `invalid_value`
    /// for an empty list.
    public func nextAddCommit(from keyPackages: [ValidatedKeyPackage], budget: EventBudget, now: Int64 = UnixTime.now(),
                              rng: RandomSource = SystemRandom()) throws -> MarmotAddStep {
        guard !keyPackages.isEmpty else { throw MLSError(.invalidValue, "no KeyPackages to add") }
        // Room for the MLS bytes in a kind-445 event: base64 of nonce + ChaCha20-Poly1305.
        let room = budget.maxBase64PayloadBytes(kind: MarmotGroupEvent.kind, tags: [["h", String(repeating: "0", count: 64)],
                                                                                    ["encoding", "base64"]]) - 12 - 16
        let perKeyPackage = keyPackages.map { $0.keyPackage.tlsSerialized.count + 8 }
        var k = 0, used = 0
        while k < keyPackages.count, used + perKeyPackage[k] <= room { used += perKeyPackage[k]; k += 1 }
        k = max(1, k)
        while true {
            let pending = try uncheckedCommit(adding: Array(keyPackages.prefix(k)), removing: [], groupData: nil, includeSelfRemoves: false,
                                              budget: budget, now: now, rng: rng)
            let size = EventBudget.wireBytes(pending.event)
            if size <= budget.maxEventBytes { return MarmotAddStep(pending: pending, added: k, remaining: keyPackages.count - k) }
            guard k > 1 else {
                throw MLSError(.eventTooLarge, "a Commit adding one member would be \(size) bytes; maxEventBytes is \(budget.maxEventBytes)")
            }
            k = max(1, min(k - 1, Int(Double(k) * Double(budget.maxEventBytes) / Double(size) * 0.97)))
        }
    }
}
