import InviteKitCrypto

extension InviteRequestLedger {
    /// Applies a requester's withdrawal (`foundation/invite-link-records.md` "Withdrawal";
    /// PROTOCOL §5.14.10). Only the context's own consent key can sign one (`invalid_signature`),
    /// so another account cannot withdraw a request it did not make. It closes the context across
    /// every revision, out-of-order refreshes included, and never removes a member. Before the
    /// context's revision zero it waits, bounded, without a reservation.
    @discardableResult
    public mutating func withdraw(_ withdrawal: InviteWithdrawalV1, at now: UInt64) throws -> InviteRequestState? {
        try withdrawal.verifyConsent()
        let context = withdrawal.context
        if var record = records[context], !record.chain.isEmpty {
            if record.withdrawal == nil { record.withdrawal = withdrawal }
            records[context] = record
            return record.state(at: now)
        }
        guard !earlyWithdrawals.contains(where: { $0.context == context }) else { return records[context]?.state(at: now) }
        if earlyWithdrawals.count(where: { $0.context.linkID == context.linkID }) >= InviteLinkLimits.openContextsPerLink,
           let oldest = earlyWithdrawals.firstIndex(where: { $0.context.linkID == context.linkID }) {
            earlyWithdrawals.remove(at: oldest)
        }
        earlyWithdrawals.append(withdrawal)
        return records[context]?.state(at: now)
    }

    /// Records `admin`'s decline of the validated request `requestHash`. It suppresses automatic
    /// processing across revisions and changes no group state; a decline naming a request not
    /// yet validated is `not_found` (the caller keeps it until the evidence arrives).
    @discardableResult
    public mutating func decline(_ context: InviteRequestContextV1, requestHash: [UInt8], by admin: [UInt8], at now: UInt64) throws -> InviteRequestState {
        guard var record = records[context], record.contains(requestHash: requestHash) else {
            throw MLSError(.notFound, "the declined request has not been validated here")
        }
        let decline = InviteRequestRecord.Decline(admin: admin, requestHash: requestHash)
        if !record.declines.contains(decline) { record.declines.append(decline) }
        records[context] = record
        return record.state(at: now)
    }

    /// Records that the selected branch's Commit `commitHash` added the KeyPackage that
    /// `requestHash` offered, with the Welcome it made: the context is `realized` and never
    /// yields a second Add, whatever is withdrawn or declined later.
    public mutating func realize(_ context: InviteRequestContextV1, requestHash: [UInt8], commitHash: [UInt8], welcomeHash: [UInt8]) throws {
        guard var record = records[context], record.contains(requestHash: requestHash) else {
            throw MLSError(.notFound, "the realized request has not been validated here")
        }
        record.realization = .init(requestHash: requestHash, commitHash: commitHash, welcomeHash: welcomeHash)
        records[context] = record
    }

    /// Withdraws every realization by `commitHash`, which convergence left on a losing branch;
    /// the contexts are as before the Add. Returns them.
    @discardableResult
    public mutating func unrealize(commitHash: [UInt8]) -> [InviteRequestContextV1] {
        var changed: [InviteRequestContextV1] = []
        for (context, var record) in records where record.realization?.commitHash == commitHash {
            record.realization = nil
            records[context] = record
            changed.append(context)
        }
        return changed
    }

    /// Retires `linkID`'s generation, as selected history removed its entry: every unfulfilled
    /// request of it is revoked, and its contexts stop counting against the group's capacity.
    /// Returns the contexts now revoked, for the optional `retired` status notices.
    @discardableResult
    public mutating func retire(linkID: [UInt8], at now: UInt64) -> [InviteRequestContextV1] {
        retiredLinks.insert(linkID)
        var revoked: [InviteRequestContextV1] = []
        for (context, var record) in records where context.linkID == linkID && !record.revoked {
            let wasOpen = !record.state(at: now).isTerminal
            record.revoked = true
            records[context] = record
            if wasOpen { revoked.append(context) }
        }
        return revoked.sorted { $0.encoded.lexicographicallyPrecedes($1.encoded) }
    }

    /// Undoes ``retire(linkID:at:)`` when convergence invalidates the retiring branch: the
    /// generation's requests are eligible again (to be revalidated by the caller) and count again,
    /// so an excess pauses new admission. Withdrawals stay in force.
    public mutating func restore(linkID: [UInt8]) {
        retiredLinks.remove(linkID)
        for (context, var record) in records where context.linkID == linkID {
            record.revoked = false
            records[context] = record
        }
    }

    /// Forgets what its signed deadline now refuses by itself: contexts whose `valid_until` is
    /// more than twenty-four hours past, and early withdrawals past their deadline. Returns how
    /// many contexts went.
    @discardableResult
    public mutating func prune(at now: UInt64) -> Int {
        let before = records.count
        records = records.filter { now < $0.key.validUntil || now - $0.key.validUntil < InviteLinkLimits.tombstoneGrace }
        earlyWithdrawals.removeAll { now >= $0.context.validUntil }
        return before - records.count
    }
}
