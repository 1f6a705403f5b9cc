import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr
import InviteKitRelay

/// What ``InviteKitNode/addMembers(_:to:timeout:)`` did.
public struct NodeAddResult: Sendable, Hashable {
    /// The Commits that added members, in order (each confirmed before the next was built).
    public var commits: [String] = []
    /// Members added, in add order.
    public var added: [Secp256k1.XOnlyPublicKey] = []
    /// Members left out: already in the group, or with no valid KeyPackage of the group's profile
    /// on the group's relays or on the member's own KeyPackage relays.
    public var skipped: [Secp256k1.XOnlyPublicKey] = []
}

extension InviteKitNode {
    /// Adds many members to a group this node hosts as its admin, in as many Commits as
    /// ``Configuration/eventBudget`` needs (PROTOCOL §5.11): each Commit holds the longest run of
    /// KeyPackages whose event fits, and the next is built only once a relay acknowledged the one
    /// before (MIP-03). Every joiner gets its own Welcome, with the ratchet tree out of band when
    /// it does not fit. ``run()`` must be running (it publishes and confirms).
    ///
    /// Not resumable on its own: when it throws midway, the members added so far stay added;
    /// call it again with the same list (members already in the group are skipped).
    public func addMembers(_ members: [Secp256k1.XOnlyPublicKey], to groupID: String,
                           timeout: Duration? = nil) async throws(InviteKitError) -> NodeAddResult {
        try requireOpen()
        return try await InviteKitError.mapping {
            let row = try groupRow(groupID)
            guard hostedGroup(row.id) != nil else { throw InviteKitError(.notPermitted, underlyingCode: "not_hosted") }
            var result = NodeAddResult()
            var seen = Set(try currentGroup(row.id).state.memberIdentities)
            var wanted: [Secp256k1.XOnlyPublicKey] = []
            for m in members {
                if seen.insert(m.rawRepresentation).inserted { wanted.append(m) } else { result.skipped.append(m) }
            }
            // KeyPackages are looked up on the group's relays and on each member's kind-10002 write
            // relays (kind 10051 for older peers), as the lists on the group's relays name them
            // (PROTOCOL §5.12.6); the lists' kind-10050 inboxes receive the Welcomes.
            let pool = RelayPool(row.relays.map { configuration.connector($0) })
            let accounts = await AccountRelayFetch.fetch(from: pool, authors: wanted, timeout: configuration.relayTimeout)
            var found = await KeyPackageFetch.fetch(from: pool, authors: wanted, timeout: configuration.relayTimeout)
            await pool.close()
            let extra = Array(Set(accounts.values.flatMap(\.keyPackageRelays)).subtracting(row.relays)).sorted()
                .prefix(Self.maxExtraKeyPackageRelays)
            if !extra.isEmpty {
                let more = RelayPool(extra.map { configuration.connector($0) })
                for (author, events) in await KeyPackageFetch.fetch(from: more, authors: wanted, timeout: configuration.relayTimeout) {
                    found[author] = KeyPackageFetch.newestPerAddress((found[author] ?? []) + events, author: author)
                }
                await more.close()
            }
            for (author, r) in accounts where !r.inboxRelays.isEmpty { welcomeInboxes[author.hex] = r.inboxRelays }
            let profile = try currentGroup(row.id).profile
            let now = currentTime()
            var keyPackages: [ValidatedKeyPackage] = []
            for m in wanted {
                if let chosen = KeyPackageValidator.select(found[m] ?? [], profile: profile, now: now).chosen {
                    keyPackages.append(chosen)
                } else {
                    result.skipped.append(m)
                }
            }
            guard !keyPackages.isEmpty else {
                throw InviteKitError(.keyPackageUnavailable, underlyingCode: wanted.isEmpty ? "already_members" : "none_valid")
            }
            let deadline = timeout.map { ContinuousClock.now.advanced(by: $0) }
            var stalled = 0
            while true {
                let members = Set(try currentGroup(row.id).state.memberIdentities)
                keyPackages.removeAll { members.contains($0.keyPackage.leafNode.credential.identity) }
                guard !keyPackages.isEmpty else { break }
                guard let hosted = hostedGroup(row.id) else { throw InviteKitError(.notPermitted, underlyingCode: "not_hosted") }
                // Subscribed before the Commit is queued, so its outcome cannot be missed.
                let events = self.events(bufferingNewest: 64)
                if !busyGroups.contains(row.id) {
                    let step = try hosted.group.nextAddCommit(from: keyPackages, budget: configuration.eventBudget, now: currentTime(), rng: randomSource)
                    let first = keyPackages[0]
                    let pending = PendingJoin(conversationID: row.id, joiner: try first.event.authorKey(), keyPackageEventID: first.event.id,
                                              inviteTag: nil, commit: step.pending)
                    result.commits.append(try submit(.join(pending), relays: row.relays))
                    wake()
                }
                try await waitUntilIdle(row.id, events: events, deadline: deadline)
                let after = Set(try currentGroup(row.id).state.memberIdentities)
                let progress = keyPackages.filter { after.contains($0.keyPackage.leafNode.credential.identity) }
                result.added += progress.compactMap { Self.memberKey(bytes: $0.keyPackage.leafNode.credential.identity) }
                // A Commit that keeps losing its epoch to others' Commits is given up on, not retried forever.
                stalled = progress.isEmpty ? stalled + 1 : 0
                if stalled >= 3 { throw InviteKitError(.commitRejected, underlyingCode: "add_stalled") }
            }
            return result
        }
    }

    /// The most relays outside the group's that one add asks for KeyPackages.
    static let maxExtraKeyPackageRelays = 32

    /// Returns once `groupID` has no own Commit in flight and no convergence pass collecting,
    /// reading `events` (subscribed before the Commit was queued) for the node's commit outcomes
    /// and resolved passes.
    private func waitUntilIdle(_ groupID: String, events: AsyncStream<NodeEvent>, deadline: ContinuousClock.Instant?) async throws {
        guard busyGroups.contains(groupID) else { return }
        let idle = await NodeEventWait.first(in: events, timeout: deadline.map { ContinuousClock.now.duration(to: $0) }) { event -> Bool? in
            switch event {
            case .commitConfirmed(let g, _, _) where g == groupID, .commitRolledBack(let g, _, _) where g == groupID,
                 .convergencePassResolved(let g, _, _) where g == groupID:
                // A convergence pass that collects keeps the group busy after its own Commit's outcome.
                return await self.busyGroups.contains(groupID) ? nil : true
            default:
                return nil
            }
        } ?? false
        guard idle else { throw InviteKitError(.timedOut, underlyingCode: "add_pending") }
    }
}
