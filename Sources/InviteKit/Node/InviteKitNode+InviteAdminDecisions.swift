import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr
import InviteKitStore

/// The private decisions admins share about invite-link requests (PROTOCOL §5.14.15;
/// `foundation/invite-link-records.md` "Private admin records"; `features/group-invite-links.md`
/// "Admin review and realization", "Processing private control records"). A decline and an
/// invited claim go to every other current admin as `declined` and `invited` records in kind 461
/// batches, as grants do, so a decline by one admin stops every admin's automatic processing of
/// that context, and a second admin learns that a request was realized and makes no second Add.
/// Private decisions are best effort: they never select a branch or gate a Commit, and one lost
/// on the way changes nothing a Commit decides.
extension InviteKitNode {
    /// Sends `status` (a declined or invited status of `groupID`) to every other current admin,
    /// authored at the current epoch. Nothing is sent when there is no other admin.
    func shareInviteDecision(_ status: InviteStatusV1, groupID: String) throws {
        let group = try currentGroup(groupID)
        let action: InviteAdminRecordV1.Action = status.outcome == .declined ? .declined(status) : .invited(status)
        let record = try InviteAdminRecordV1(groupID: group.state.groupID, sourceEpoch: group.epoch, linkID: status.context.linkID, action: action)
        try sendInviteAdminRecord(record, groupID: groupID)
    }

    /// Sends `record` to `recipients` (every other current admin by default) as kind 461 group
    /// messages; the batch's bound (sixteen recipients) splits a larger set into several events.
    /// `rows` writes what the caller records of each batch's recipients in the transaction that
    /// stores its message, so a crash cannot separate the two.
    func sendInviteAdminRecord(_ record: InviteAdminRecordV1, groupID: String, to recipients: [[UInt8]]? = nil,
                               recording rows: (StoreTransaction, ArraySlice<[UInt8]>) throws -> Void = { _, _ in }) throws {
        let group = try currentGroup(groupID)
        let others = recipients ?? group.groupData.admins.filter { $0 != publicKey.rawRepresentation }
        guard !others.isEmpty, group.isAdmin else { return }
        let now = currentTime()
        for start in stride(from: 0, to: others.count, by: InviteAdminBatchV1.maxRecipients) {
            let batchRecipients = others[start..<min(others.count, start + InviteAdminBatchV1.maxRecipients)]
            let copies = batchRecipients.map { InviteAdminBatchDelivery.Copy(recipient: $0, record: record) }
            let batch = try InviteAdminBatchDelivery.make(copies, admin: signingKey, now: now, rng: randomSource)
            _ = try sendMessage(EventTemplate(kind: InviteLinkNostr.adminRecordKind, content: Base64.encode(batch.encoded)), relation: nil,
                                groupID: groupID) { tx in try rows(tx, batchRecipients) }
        }
    }

    /// Applies another admin's opened `declined` or `invited` record, inside the transaction
    /// saving its message. The batch's sender and recipients were admins at its source epoch
    /// (``InviteAdminBatchDelivery``); here the record must name a link this node holds, with that
    /// generation's inbox (`invite_unauthorized` otherwise), and a request this node validated:
    /// - a decline is kept as that admin's (the context stops being automatic, across revisions);
    /// - an invited claim realizes the context only when the selected branch's retained history
    ///   holds its Commit and that Commit added the requester's account
    ///   (``MarmotGroup/retainsCommit(_:adding:)``).
    /// A request not validated here yet, or a claim without its Commit, is missing evidence: nothing
    /// is recorded, and the node's own ledger decides until it arrives.
    func receiveInviteDecision(_ record: InviteAdminRecordV1, from sender: [UInt8], groupID: String, group: MarmotMLSGroup,
                               in tx: StoreTransaction, now: Int64) throws {
        let status: InviteStatusV1
        switch record.action {
        case .declined(let s), .invited(let s): status = s
        case .grant, .forwardRequest, .withdrawal: return
        }
        guard let link = try tx.inviteLinks.get(linkID: Hex.encode(record.linkID)), link.groupID == groupID else { return }
        let generation = try InviteLinkGeneration(serialized: link.generation)
        guard status.context.inboxPublicKey == generation.entry.inboxPublicKey else {
            throw InviteKitError(.notPermitted, underlyingCode: "invite_unauthorized", context: "a decision for another generation's inbox")
        }
        var ledger = try Self.ledger(groupID, in: tx)
        guard ledger.record(for: status.context)?.contains(requestHash: status.requestHash) == true else { return }
        if status.outcome == .declined {
            try ledger.decline(status.context, requestHash: status.requestHash, by: sender, at: UInt64(max(0, now)))
        } else {
            guard group.retainsCommit(status.commitHash, adding: status.context.requesterAccount) else { return }
            try ledger.realize(status.context, requestHash: status.requestHash, commitHash: status.commitHash, welcomeHash: status.welcomeHash)
        }
        try tx.inviteLinks.saveLedger(groupID: groupID, ledger.serialized(), now: now)
    }
}
