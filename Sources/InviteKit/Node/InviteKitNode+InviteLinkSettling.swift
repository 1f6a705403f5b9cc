import InviteKitCrypto
import InviteKitMLS
import InviteKitStore

/// What the selected group state and the own Commits' outcomes mean for the invite links
/// (PROTOCOL §5.14.15), settled from the store on every ``run()`` round and after each own
/// policy Commit, so nothing depends on an event that a restart could lose:
/// - an `activating` link whose entry is in selected state is `active`; one whose Commit was
///   rolled back (or applied without it) is `failed` and never reused;
/// - an `active` link whose entry left selected state (a revocation, or the rotation an admin
///   change forces, from any admin) is `retired`: the ledger revokes its unfulfilled requests,
///   each gets a `retired` status;
/// - an approval whose Add was applied and settled (its Welcome released) is realized in the ledger, its `invited` status queued and
///   shared with the other admins;
///   one whose Add was rolled back is `lost` and the request is open again;
/// - an admin promoted after a link was made is sent the link's grant;
/// - automatic links' eligible requests are approved, one per group at a time.
extension InviteKitNode {
    func settleInviteLinks() throws {
        let (links, approvals) = try store.read { tx in (try tx.inviteLinks.all(), try tx.inviteLinks.waitingApprovals()) }
        guard !links.isEmpty else { return }
        let now = currentTime()
        var events: [NodeEvent] = [], invited: [(InviteStatusV1, String)] = []
        if try needsSettling(links, approvals) {
            (events, invited) = try store.write { tx in try settle(links, approvals, in: tx, now: now) }
        }
        // The other admins learn of each realization (best effort, after the transaction).
        for (status, groupID) in invited { try? shareInviteDecision(status, groupID: groupID) }
        for e in events { emit(e) }
        if runtime != nil { try grantPromotedAdmins() }
        startAutomaticApprovals(links, now: now)
    }

    /// Whether any link or approval changes state now: most rounds write nothing.
    private func needsSettling(_ links: [InviteLinkRecord], _ approvals: [InviteLinkApprovalRecord]) throws -> Bool {
        for link in links where link.state == .activating || link.state == .active {
            guard let group = registry[link.groupID]?.group else { continue }
            let present = try group.inviteLinks?.links.contains(InviteLinkGeneration(serialized: link.generation).entry) ?? false
            if link.state == .activating ? (present || pendingCommits[link.commitEventID ?? ""] == nil) : !present { return true }
        }
        return approvals.contains(where: approvalSettled)
    }

    /// Whether an approval's Add is decided: acknowledged (or refused) and, when acknowledged, its
    /// Welcomes no longer held (PROTOCOL §5.13, "Welcome hold"): a realization is projected only
    /// once the Add settled on the selected branch.
    private func approvalSettled(_ approval: InviteLinkApprovalRecord) -> Bool {
        pendingCommits[approval.commitEventID] == nil && welcomeHolds[approval.commitEventID] == nil
    }

    /// The settled links' and approvals' events, and the `invited` statuses to share with the
    /// other admins (status, group id).
    private func settle(_ links: [InviteLinkRecord], _ approvals: [InviteLinkApprovalRecord], in tx: StoreTransaction,
                        now: Int64) throws -> ([NodeEvent], [(InviteStatusV1, String)]) {
        var events: [NodeEvent] = [], shared: [(InviteStatusV1, String)] = []
        var ledgers: [String: InviteRequestLedger] = [:]
        func ledger(_ groupID: String) throws -> InviteRequestLedger {
            if let l = ledgers[groupID] { return l }
            let l = try Self.ledger(groupID, in: tx)
            ledgers[groupID] = l
            return l
        }
        let today = UInt64(max(0, now))
        for link in links where link.state == .activating || link.state == .active {
            guard let group = registry[link.groupID]?.group else { continue }
            let generation = try InviteLinkGeneration(serialized: link.generation)
            let present = group.inviteLinks?.links.contains(generation.entry) ?? false
            if link.state == .activating {
                if present {
                    try tx.inviteLinks.setState(linkID: link.linkID, .active, now: now)
                    events.append(.inviteLinkCreated(groupID: link.groupID, linkID: link.linkID))
                } else if let commit = link.commitEventID, pendingCommits[commit] == nil,
                          try tx.pendingCommits.get(commitEventID: commit)?.status != .waiting {
                    try tx.inviteLinks.setState(linkID: link.linkID, .failed, now: now)
                }
            } else if !present {
                var l = try ledger(link.groupID)
                let revoked = l.retire(linkID: generation.entry.linkID, at: today)
                for context in revoked {
                    guard let request = l.record(for: context)?.governingRequest else { continue }
                    let status = try InviteStatusV1(context: context, requestHash: request.requestHash, outcome: .retired)
                    // Settling reads no relay: the offer's hints are the only destination known here.
                    try queueInviteStatus(status, relays: request.tbs.offer.welcomeHints, in: tx, now: now)
                }
                ledgers[link.groupID] = l
                // The descriptor goes too, so a later preview says the link is gone.
                let deletion = try InvitePreviewDescriptorEvent.deletion(linkID: generation.entry.linkID, descriptorEventID: link.descriptorEventID,
                                                                         inboxKey: try generation.inboxKey, now: now, rng: randomSource)
                try enqueue(deletion, purpose: .inviteLinkDescriptorDeletion, relays: generation.code.requestRelays, in: tx, now: now)
                try tx.inviteLinks.setState(linkID: link.linkID, .retired, now: now)
                events.append(.inviteLinkRevoked(groupID: link.groupID, linkID: link.linkID, cancelledRequests: revoked.count))
            }
        }
        for approval in approvals where approvalSettled(approval) {
            guard let status = try tx.pendingCommits.get(commitEventID: approval.commitEventID)?.status, status != .waiting else { continue }
            let context = try InviteRequestContextV1(decoding: approval.context)
            guard status == .confirmed else {
                try tx.inviteLinks.resolveApproval(commitEventID: approval.commitEventID, as: .lost, now: now)
                continue
            }
            var l = try ledger(approval.groupID)
            try l.realize(context, requestHash: approval.requestHash, commitHash: approval.commitHash, welcomeHash: approval.welcomeHash)
            ledgers[approval.groupID] = l
            let invited = try InviteStatusV1(context: context, requestHash: approval.requestHash, outcome: .invited,
                                             commitHash: approval.commitHash, welcomeHash: approval.welcomeHash)
            try queueInviteStatus(invited, relays: approval.statusRelays, in: tx, now: now)
            shared.append((invited, approval.groupID))
            try tx.inviteLinks.resolveApproval(commitEventID: approval.commitEventID, as: .invited, now: now)
            events.append(.inviteRequestDecided(groupID: approval.groupID, requestID: Self.inviteRequestID(context), outcome: .invited))
        }
        for (groupID, var l) in ledgers {
            l.prune(at: today)
            try tx.inviteLinks.saveLedger(groupID: groupID, l.serialized(), now: now)
        }
        return (events, shared)
    }

    /// Starts, in tasks of their own, the approvals automatic links owe: per group the first
    /// eligible request (`InviteRequestLedger.automaticCandidates`) not already being approved.
    /// A request whose automatic approval failed is not retried by this run (an admin can still
    /// approve it by hand); only while ``run()`` runs.
    private func startAutomaticApprovals(_ links: [InviteLinkRecord], now: Int64) {
        guard runtime != nil else { return }
        let groups = Set(links.filter { $0.state == .active }.map(\.groupID))
        for groupID in groups.sorted() {
            guard let group = registry[groupID]?.group, group.isAdmin, !busyGroups.contains(groupID),
                  let entries = group.inviteLinks?.links, entries.contains(where: { $0.approvalMode == .automatic }),
                  let (ledger, approving, checks) = try? store.read({ tx in
                      (try Self.ledger(groupID, in: tx), Set(try tx.inviteLinks.waitingApprovals().map(\.context)),
                       try tx.inviteLinks.offerChecks(groupID: groupID))
                  }) else { continue }
            // Automatic processing needs a fully validated offer (PROTOCOL §5.14.15, "Offer evidence").
            let candidates = ledger.automaticCandidates(entries: entries, at: UInt64(max(0, now)))
                .filter { !approving.contains($0.tbs.context.encoded) && checks[$0.requestHash]?.outcome == .valid }
            guard let next = candidates.first(where: { runtime?.inviteAutoApprovals.contains(Self.inviteRequestID($0.tbs.context)) == false }) else {
                continue
            }
            let requestID = Self.inviteRequestID(next.tbs.context)
            runtime?.inviteAutoApprovals.insert(requestID)
            Task { [weak self] in
                guard let self else { return }
                do {
                    _ = try await self.decideInviteRequest(requestID, in: groupID, approve: true)
                    await self.automaticApprovalQueued(requestID)
                } catch {
                    await self.emit(.eventRejected(eventID: requestID, error: InviteKitError.from(error)))
                }
            }
        }
    }

    /// A queued automatic approval's request may be taken up again once its Add is settled
    /// (a lost Add reopens it).
    private func automaticApprovalQueued(_ requestID: String) {
        runtime?.inviteAutoApprovals.remove(requestID)
    }
}
