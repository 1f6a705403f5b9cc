import InviteKitCrypto

extension InviteRequestLedger {
    /// Admits a request or refresh delivered to `entry`'s inbox (`features/group-invite-links.md`
    /// "Consent and request admission", "Refresh and failed delivery"; PROTOCOL §5.14.10).
    ///
    /// Checks, in order: the link is active in the selected state (`invite_link_inactive`), the
    /// inbox and bearer match it (`invite_unauthorized`), the deadline has not passed (`expired`)
    /// and is at most thirty days ahead (`invalid_invite_record`), the consent signature
    /// (`invalid_signature`), the capacity bounds (`invite_capacity`), and a refresh's ancestry.
    /// A refused request leaves the ledger as it was.
    public mutating func admit(_ request: InviteRequestV1, entry: InviteLinkV1?, now: UInt64) throws -> InviteAdmission {
        let context = request.tbs.context
        try requireActive(entry, for: context)
        guard let entry else { throw MLSError(.inviteLinkInactive, "no link") }
        let presented = request.tbs.bearerHash
        guard ConstantTime.equals(presented, entry.bearerHash) else {
            throw MLSError(.inviteUnauthorized, "the request's bearer does not open this link")
        }
        guard now < context.validUntil else { throw MLSError(.expired, "the request's deadline has passed") }
        guard context.validUntil - now <= InviteLinkLimits.maxDeadlineAhead else {
            throw MLSError(.invalidInviteRecord, "valid_until is more than thirty days ahead")
        }
        try request.verifyConsent()

        var record: InviteRequestRecord
        if let existing = records[context] {
            record = existing
            if record.retained.contains(where: { $0.requestHash == request.requestHash }) { return .duplicate }
            let state = record.state(at: now)
            // A realized, withdrawn or revoked context admits nothing more, refreshes included.
            if state == .realized || state == .withdrawn || state == .revoked { return .closed(state) }
        } else {
            guard openContexts(linkID: context.linkID, at: now) < InviteLinkLimits.openContextsPerLink else {
                throw MLSError(.inviteCapacity, "the link holds \(InviteLinkLimits.openContextsPerLink) open requests")
            }
            guard retainedOnActiveLinks < InviteLinkLimits.retainedContextsPerGroup else {
                throw MLSError(.inviteCapacity, "the group retains \(InviteLinkLimits.retainedContextsPerGroup) request contexts")
            }
            record = InviteRequestRecord(context: context, timingUnverified: entry.isExpired(at: now))
        }
        guard record.retained.count < InviteLinkLimits.requestsPerContext else {
            throw MLSError(.inviteCapacity, "the context already retains \(InviteLinkLimits.requestsPerContext) requests")
        }
        let outcome = try Self.place(request, in: &record)
        if !record.chain.isEmpty, let i = earlyWithdrawals.firstIndex(where: { $0.context == context }) {
            record.withdrawal = earlyWithdrawals.remove(at: i)
        }
        records[context] = record
        return outcome
    }

    /// Puts a consent-checked request into the record's chain, its waiting list or its conflict
    /// flag, then links whatever waited on it.
    static func place(_ request: InviteRequestV1, in record: inout InviteRequestRecord) throws -> InviteAdmission {
        let revision = Int(request.tbs.revision)
        if revision < record.chain.count {
            // A second request at a validated revision: a conflict only if it is itself valid there.
            if revision > 0 { try request.verifyRefresh(of: record.chain[revision - 1]) }
            record.conflicting = true
            return .conflicting
        }
        if revision > record.chain.count {
            record.waiting.append(request)
            return .awaitingAncestor
        }
        if let parent = record.chain.last { try request.verifyRefresh(of: parent) }
        record.chain.append(request)
        link(&record)
        if record.conflicting { return .conflicting }
        return revision == 0 ? .admitted : .refreshed(revision: request.tbs.revision)
    }

    /// Moves waiting refreshes onto the chain while exactly one validly extends it. Two that do,
    /// or one valid beside a revision already on the chain, make the context conflicting and
    /// neither is chosen. A waiting request that does not fit the chain it reached was never
    /// valid and is dropped.
    static func link(_ record: inout InviteRequestRecord) {
        while !record.conflicting, let parent = record.chain.last {
            let next = record.chain.count
            var extending: [InviteRequestV1] = [], still: [InviteRequestV1] = []
            for r in record.waiting {
                let revision = Int(r.tbs.revision)
                guard revision <= next else { still.append(r); continue }
                guard (try? r.verifyRefresh(of: revision == next ? parent : record.chain[revision - 1])) != nil else { continue }
                if revision == next { extending.append(r) } else { record.conflicting = true }
            }
            record.waiting = still
            if extending.count > 1 { record.conflicting = true }
            guard !record.conflicting, let only = extending.first else { return }
            record.chain.append(only)
        }
    }
}
