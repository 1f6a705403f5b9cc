import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr
import InviteKitStore

/// Private group invite links v1, the admin's side (PROTOCOL §5.14.15;
/// `features/group-invite-links.md` "Creating and sharing", "Expiry, revocation and withdrawal"):
/// a generation is made, activated by a policy Commit of component `0x800e` and usable only once
/// a relay acknowledged that Commit and it was applied; its descriptor is gated on the Commit.
/// Requests, decisions and the settling of Commit outcomes are in InviteKitNode+InviteLinkRequests.swift.
extension InviteKitNode {
    /// Creates an invite link for a group this node administers (current profile): a fresh
    /// generation (inbox key, link id, bearer, preview key; `InviteLinkGeneration`), the policy
    /// Commit adding its entry, and the kind 30444 descriptor to `requestRelays` gated on that
    /// Commit. Returns once the Commit was applied (publish-before-apply), so the code it returns
    /// is usable; ``NodeEvent/inviteLinkCreated(groupID:linkID:)`` follows. Every other current
    /// admin is then sent the generation's grant (kind 461 in the group), so it sees and decides
    /// the link's requests too.
    ///
    /// - Parameters:
    ///   - groupID: the group (either id).
    ///   - approval: `.manual` (an admin decides each request) or `.automatic` (valid requests
    ///     are added while the link is unexpired).
    ///   - expiresAt: 0 for no expiry, else a Unix time: expiry stops new requests and automatic admission.
    ///   - name: the preview's name; the group's name by default.
    ///   - description: the preview's description.
    ///   - requestRelays: 1–8 `wss://` relays for the descriptor and requests; the group's
    ///     `wss://` relays by default (`not_permitted`/`no_wss_relays` when it has none).
    ///   - timeout: how long to wait for the Commit (`timed_out`/`commit_pending`); the link
    ///     becomes active later if the Commit is applied after it.
    ///
    /// Refusals: `commit_pending` when ``run()`` is not running, `not_permitted`/`not_admin`,
    /// `group_disbanded`, `commit_rejected` when every relay
    /// refused the Commit or another Commit took its epoch (make the link again), and the
    /// component's bounds (at most eight links: `invalid_invite_links` as `commit_rejected`).
    public func createInviteLink(in groupID: String, approval: InviteLinkV1.ApprovalMode = .manual, expiresAt: UInt64 = 0,
                                 name: String? = nil, description: String = "", requestRelays: [String]? = nil,
                                 timeout: Duration? = nil) async throws(InviteKitError) -> NodeInviteLink {
        try requireOpen()
        try requireRunningForLinks()
        let rowID = try InviteKitError.mapping { try linkAdminGroup(groupID).row.id }
        try await awaitCommitSlot(rowID)
        let (commitID, linkID) = try InviteKitError.mapping {
            try queueInviteLink(groupID: rowID, approval: approval, expiresAt: expiresAt, name: name, description: description,
                                requestRelays: requestRelays)
        }
        wake()
        try await settleAfterCommit(commitID, timeout: timeout)
        guard let link = try inviteLinks(in: rowID).first(where: { $0.linkID == linkID }), link.state == .active else {
            throw InviteKitError(.commitRejected, underlyingCode: "invite_link_not_active")
        }
        // The other admins' grants; the link is usable without them.
        try InviteKitError.mapping { try sendInviteGrants(linkID: linkID, groupID: rowID) }
        wake()
        return link
    }

    /// Revokes an invite link: a policy Commit removing its entry (admins only). Once applied,
    /// every unfulfilled request of the generation is cancelled (the ledger's retirement), each
    /// requester is sent a `retired` status, and ``NodeEvent/inviteLinkRevoked(groupID:linkID:cancelledRequests:)``
    /// follows. Returns the Commit's event id, after it was applied.
    ///
    /// Refusals: `not_found`/`no_such_link` for a link that is not active in the group,
    /// `not_permitted`/`not_admin`, and `commit_rejected` as for ``createInviteLink(in:approval:expiresAt:name:description:requestRelays:timeout:)``.
    @discardableResult
    public func revokeInviteLink(_ linkID: String, in groupID: String, timeout: Duration? = nil) async throws(InviteKitError) -> String {
        try requireOpen()
        try requireRunningForLinks()
        let rowID = try InviteKitError.mapping { () throws -> String in
            let (row, group) = try linkAdminGroup(groupID)
            _ = try activeEntry(linkID, in: group)
            return row.id
        }
        try await awaitCommitSlot(rowID)
        let commitID = try InviteKitError.mapping { () throws -> String in
            let (row, group) = try linkAdminGroup(rowID)
            try requireNoCommitInFlight(row.id)
            let entry = try activeEntry(linkID, in: group)
            let remaining = try InviteLinksV1(links: (group.inviteLinks?.links ?? []).filter { $0 != entry })
            let commit = try group.inviteLinksCommit(remaining, now: currentTime(), rng: randomSource)
            return try submit(.change(groupID: row.id, commit: commit), relays: row.relays)
        }
        wake()
        try await settleAfterCommit(commitID, timeout: timeout)
        return commitID
    }

    /// The group's invite links this node made or holds, oldest first, in every state.
    public func inviteLinks(in groupID: String) throws(InviteKitError) -> [NodeInviteLink] {
        try requireOpen()
        return try InviteKitError.mapping {
            let row = try groupRow(groupID)
            return try store.read { tx in try Self.inviteLinks(ofGroup: row.id, in: tx) }
        }
    }

    /// The stored links of the group with row id `rowID` (also read by ``NodeHome/inviteLinks(in:)``).
    static func inviteLinks(ofGroup rowID: String, in tx: StoreTransaction) throws -> [NodeInviteLink] {
        try tx.inviteLinks.all(groupID: rowID).map { r in
            let generation = try InviteLinkGeneration(serialized: r.generation)
            return NodeInviteLink(groupID: r.groupID, linkID: r.linkID, code: generation.code, entry: generation.entry, state: r.state,
                                  createdAt: r.createdAt)
        }
    }

    // MARK: internals

    /// A policy Commit is published and applied only by ``run()``: without it, a link call that
    /// waits for its Commit would wait for nothing (`commit_pending`).
    private func requireRunningForLinks() throws(InviteKitError) {
        guard runtime != nil else {
            throw InviteKitError(.commitPending, underlyingCode: "commit_pending", context: "run() publishes the link's policy Commit")
        }
    }

    /// The group's row and state, or why this node may not manage its invite links.
    func linkAdminGroup(_ groupID: String) throws -> (row: StoredGroup, group: MarmotMLSGroup) {
        let row = try groupRow(groupID)
        let group = try currentGroup(row.id)
        if group.groupData.lifecycle == .disbanded { throw InviteKitError(.groupDisbanded, underlyingCode: "group_disbanded") }
        if row.removedAt != nil || group.isRemoved { throw InviteKitError(.notAMember, underlyingCode: "removed") }
        guard group.isAdmin else { throw InviteKitError(.notPermitted, underlyingCode: "not_admin") }
        guard group.profile == .current else {
            throw InviteKitError(.notPermitted, underlyingCode: "profile_mismatch", context: "invite links need a current-profile group")
        }
        return (row, group)
    }

    /// A group this node administers as the join path sees it: the hosted group, or for a group
    /// it joined and was made admin of, the same group without an invite tag (an approved
    /// invite-link request is added by whichever admin decides it).
    func inviteLinkHost(_ groupID: String) -> HostedGroup? {
        if let hosted = hostedGroup(groupID) { return hosted }
        guard let entry = registry[groupID], entry.group.isAdmin else { return nil }
        return HostedGroup(group: entry.group, currentTag: "", relays: entry.relays, name: entry.name)
    }

    /// The group's active entry with `linkID` (hex).
    private func activeEntry(_ linkID: String, in group: MarmotMLSGroup) throws -> InviteLinkV1 {
        guard let id = Hex.decode(linkID.lowercased(), count: 32), let entry = group.inviteLinks?.link(id) else {
            throw InviteKitError(.notFound, underlyingCode: "no_such_link")
        }
        return entry
    }

    /// Builds the generation, its policy Commit and its descriptor, and stores all three in one
    /// transaction (the secrets before anything is sent). Returns the Commit's id and the link's.
    private func queueInviteLink(groupID: String, approval: InviteLinkV1.ApprovalMode, expiresAt: UInt64, name: String?,
                                 description: String, requestRelays: [String]?) throws -> (commit: String, link: String) {
        let (row, group) = try linkAdminGroup(groupID)
        try requireNoCommitInFlight(row.id)
        let relays = Array(Set(requestRelays ?? row.relays.filter(InviteRelayURLList.isValid))).sorted()
        guard !relays.isEmpty else {
            throw InviteKitError(.notPermitted, underlyingCode: "no_wss_relays", context: "invite codes name 1 to 8 wss:// relays")
        }
        let now = currentTime()
        let title = name ?? (group.groupData.name.isEmpty ? "Group" : group.groupData.name)
        let generation = try InviteLinkGeneration.create(name: title, description: description, expiresAt: expiresAt, approvalMode: approval,
                                                         requestRelays: Array(relays.prefix(InviteRelayURLList.maxURLs)), rng: randomSource)
        guard let preview = generation.preview else { throw InviteKitError(.unknown, underlyingCode: "no_preview") }
        let links = try InviteLinksV1(links: (group.inviteLinks?.links ?? []) + [generation.entry])
        let commit = try group.inviteLinksCommit(links, now: now, rng: randomSource)
        let descriptor = try InvitePreviewDescriptorEvent.make(preview, previewKey: generation.code.previewKey, inboxKey: try generation.inboxKey,
                                                                now: now, rng: randomSource)
        let linkID = Hex.encode(generation.entry.linkID)
        try store.write { tx in
            try tx.inviteLinks.insert(InviteLinkRecord(linkID: linkID, groupID: row.id, generation: generation.serialized(), state: .activating,
                                                       commitEventID: commit.event.id, descriptorEventID: descriptor.id, createdAt: now,
                                                       updatedAt: now))
            try queue(.change(groupID: row.id, commit: commit), requestID: nil, relays: row.relays, in: tx, now: now)
            try enqueue(descriptor, purpose: .inviteLinkDescriptor, relays: generation.code.requestRelays, gate: commit.event.id, in: tx, now: now)
        }
        pendingCommits[commit.event.id] = .change(groupID: row.id, commit: commit)
        return (commit.event.id, linkID)
    }

    /// Waits for an own policy Commit's outcome, then settles the links whatever it was, so a
    /// rolled-back activation is marked failed before the error reaches the caller.
    private func settleAfterCommit(_ commitID: String, timeout: Duration?) async throws(InviteKitError) {
        do {
            _ = try await waitForCommit(commitID, timeout: timeout)
        } catch {
            try? settleInviteLinks()
            throw error
        }
        try InviteKitError.mapping { try settleInviteLinks() }
    }
}
