import InviteKitCrypto
import InviteKitNostr
import InviteKitStore

/// Whistle join requests (PROTOCOL §8.3 rule 5): a Whistle code has no signature, so the node
/// stores each request (`pending_approvals`, in the transaction that decided it) until an admin
/// approves or declines it. Approving builds the join Commit through the one Commit path.
extension InviteKitNode {
    /// Whistle join requests of a group waiting for an admin, oldest first.
    public func pendingApprovals(groupID: String) throws(InviteKitError) -> [PendingApprovalRecord] {
        try requireOpen()
        return try InviteKitError.mapping {
            let row = try groupRow(groupID)
            return try store.read { tx in try tx.pendingApprovals.waiting(groupID: row.id) }
        }
    }

    /// ``pendingApprovals(groupID:)`` read without the home's lock, for `invite requests` while
    /// `serve` runs (docs/cli.md §5).
    public static func storedApprovals(home: StoreHome, group anyID: String) throws(InviteKitError) -> [PendingApprovalRecord] {
        try InviteKitError.mapping {
            let store = try Store.open(path: home.databasePath)
            return try store.read { tx in
                guard let row = try tx.groups.find(anyID) else { throw InviteKitError(.groupNotFound) }
                return try tx.pendingApprovals.waiting(groupID: row.id)
            }
        }
    }

    /// Approves `member`'s waiting Whistle join request (the newest, when they sent several):
    /// validates its KeyPackage again (`JoinRequestProcessor.approve`), then queues the join
    /// Commit and marks the request approved in one transaction (docs/storage.md §3). The Welcome is
    /// released by the Commit's relay `OK`, as for any join. One Commit per group in flight: while
    /// ``run()`` runs, the approval waits for the group's pending Commit (as
    /// ``removeMember(_:groupID:)`` does); otherwise `commit_pending`. Returns the Commit's event id.
    ///
    /// Throws `not_permitted` with `no_pending_approval` when `member` has no waiting request
    /// (never asked, or already approved or declined) and `already_a_member`.
    public func approveJoin(member: Secp256k1.XOnlyPublicKey, groupID: String) async throws(InviteKitError) -> String {
        try requireOpen()
        // What the Commit in flight does not change is refused before waiting for it.
        _ = try InviteKitError.mapping { try approvable(member: member, groupID: groupID) }
        try await awaitCommitSlot(groupID)
        let id = try InviteKitError.mapping { try approve(member: member, groupID: groupID) }
        wake()
        return id
    }

    /// The group, the hosted group and `member`'s newest waiting request, or why it cannot be approved.
    private func approvable(member: Secp256k1.XOnlyPublicKey, groupID: String) throws -> (StoredGroup, HostedGroup, PendingApprovalRecord) {
        let row = try groupRow(groupID)
        guard let hosted = hostedGroup(row.id) else { throw InviteKitError(.notPermitted, underlyingCode: "not_hosted") }
        let waiting = try store.read { tx in try tx.pendingApprovals.waiting(groupID: row.id, joiner: member.rawRepresentation) }
        guard let latest = waiting.last else { throw InviteKitError(.notPermitted, underlyingCode: "no_pending_approval") }
        if try currentGroup(row.id).state.memberIdentities.contains(member.rawRepresentation) {
            throw InviteKitError(.notPermitted, underlyingCode: "already_a_member")
        }
        return (row, hosted, latest)
    }

    private func approve(member: Secp256k1.XOnlyPublicKey, groupID: String) throws -> String {
        let (row, hosted, latest) = try approvable(member: member, groupID: groupID)
        try requireNoCommitInFlight(row.id)
        let keyPackage: NostrEvent
        do { keyPackage = try NostrEvent(json: latest.keyPackageEventJSON) } catch { throw InviteKitError.from(error) }
        // The stored request was checked against the seal's signer (§8.3 rule 3); the add must name the same key.
        guard (try? keyPackage.authorKey()) == member else { throw InviteKitError(.keyPackageInvalid, underlyingCode: "author_mismatch") }
        let request = WhistleJoinRequest(groupId: row.nostrGroupID, pubkey: member.hex, keyPackage: keyPackage)
        let pending: PendingJoin
        do {
            pending = try processor.approve(PendingApproval(conversationID: row.id, request: request,
                                                            approvalURL: ApprovalURL(pubkey: member, groupId: row.nostrGroupID).url), in: hosted)
        } catch {
            throw InviteKitError.from(error)
        }
        let now = currentTime()
        try store.write { tx in
            try queue(.join(pending), requestID: latest.requestID, relays: row.relays, in: tx, now: now)
            try tx.pendingApprovals.resolve(groupID: row.id, joiner: member.rawRepresentation, as: .approved,
                                            commitEventID: pending.event.id, now: now)
        }
        pendingCommits[pending.event.id] = .join(pending)
        return pending.event.id
    }

    /// Declines `member`'s waiting Whistle join requests: nothing is sent (a Whistle code names
    /// no tag for an `invite_join_error`, §8.2), the joiner keeps waiting until it gives up.
    /// Returns how many requests it ended; `not_permitted`/`no_pending_approval` when none waited.
    @discardableResult
    public func declineJoin(member: Secp256k1.XOnlyPublicKey, groupID: String) throws(InviteKitError) -> Int {
        try requireOpen()
        return try InviteKitError.mapping { try decline(member: member, groupID: groupID) }
    }

    private func decline(member: Secp256k1.XOnlyPublicKey, groupID: String) throws -> Int {
        let row = try groupRow(groupID)
        let now = currentTime()
        return try store.write { tx in
            guard !(try tx.pendingApprovals.waiting(groupID: row.id, joiner: member.rawRepresentation)).isEmpty else {
                throw InviteKitError(.notPermitted, underlyingCode: "no_pending_approval")
            }
            return try tx.pendingApprovals.resolve(groupID: row.id, joiner: member.rawRepresentation, as: .declined, now: now)
        }
    }
}
