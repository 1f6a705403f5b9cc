import InviteKitCrypto
import InviteKitNostr

/// Policy Commits for component `0x800e` (`app-components/group-invite-links-v1.md` "Updates,
/// authorization, and removal"; PROTOCOL §5.14.14): an admin replaces the whole invite-links
/// vector in a GroupContextExtensions Commit; every Commit, sent or received, is checked against
/// its candidate parent by ``InviteLinksV1/validateTransition(from:to:facts:)``, the one owner of
/// transition validity.
extension MarmotGroup {
    /// The selected state's invite links: `nil` while the group has not enabled the feature.
    public var inviteLinks: InviteLinksV1? { groupData.inviteLinks }

    /// A Commit replacing component `0x800e` with `links` (admins only, current profile). The
    /// first such Commit enables the feature: the component is added and required in the same
    /// Commit. `links` must be a valid successor of the current state (`invalid_invite_links_update`).
    /// Publish it, then call ``confirmPublished(_:acknowledgedBy:now:)``: the links are active
    /// only once the Commit is applied.
    public func inviteLinksCommit(_ links: InviteLinksV1, now: Int64 = UnixTime.now(),
                                  rng: RandomSource = SystemRandom()) throws -> MarmotPendingCommit<Engine> {
        guard profile == .current else { throw MLSError(.profileMismatch, "invite links are a current-profile component (0x800e)") }
        guard isAdmin else { throw MLSError(.notAdmin, "only an admin changes the invite links") }
        var data = groupData
        data.inviteLinks = links
        guard data != groupData else { throw MLSError(.invalidInviteLinksUpdate, "the invite links are already this state") }
        return try commit(groupData: data, now: now, rng: rng)
    }

    /// What a Commit from `parent` to `resulting` data means for `0x800e`: whether it demotes or
    /// removes an active admin (`removed` are the Commit's removed leaves' identities), whether
    /// it demotes `committer`, and whether it disbands the group.
    static func inviteLinksFacts(committer: [UInt8], removed: [[UInt8]], parent: MarmotGroupData,
                                 resulting: MarmotGroupData) -> InviteLinksCommitFacts {
        let resultingAdmins = Set(resulting.admins)
        let demoted = parent.admins.contains { !resultingAdmins.contains($0) }
        let removedAdminLeaf = removed.contains { parent.isAdmin($0) }
        return InviteLinksCommitFacts(retiresAdmin: demoted || removedAdminLeaf,
                                      demotesCommitter: parent.isAdmin(committer) && !resultingAdmins.contains(committer),
                                      disbands: resulting.lifecycle == .disbanded && parent.lifecycle != .disbanded)
    }

    /// The sender's side of the generation rotation: a Commit that demotes or removes an admin
    /// drops every parent generation from the links it writes (and all of them when it demotes
    /// its committer), so an admin change never needs a second Commit. Returns `resulting`
    /// unchanged when it retires no admin or the group has no links.
    static func rotatingInviteLinks(committer: [UInt8], removed: [[UInt8]], parent: MarmotGroupData,
                                    resulting: MarmotGroupData) throws -> MarmotGroupData {
        guard let parentLinks = parent.inviteLinks, let links = resulting.inviteLinks else { return resulting }
        let facts = inviteLinksFacts(committer: committer, removed: removed, parent: parent, resulting: resulting)
        guard facts.retiresAdmin, !facts.disbands else { return resulting }
        var out = resulting
        if facts.demotesCommitter {
            out.inviteLinks = .empty
        } else {
            let oldIDs = Set(parentLinks.links.map(\.linkID)), oldInboxes = Set(parentLinks.links.map(\.inboxPublicKey))
            out.inviteLinks = try InviteLinksV1(links: links.links.filter { !oldIDs.contains($0.linkID) && !oldInboxes.contains($0.inboxPublicKey) })
        }
        return out
    }

    /// The receiver's (and the sender's) check of a Commit's resulting `0x800e` against its
    /// candidate parent. Who may change it at all is ``authorize(_:admins:)``'s: only an admin
    /// changes GroupContext extensions.
    static func checkInviteLinks(committer: [UInt8], removed: [[UInt8]], from parent: MarmotGroupData, to resulting: MarmotGroupData) throws {
        guard parent.profile == .current else { return }
        let facts = inviteLinksFacts(committer: committer, removed: removed, parent: parent, resulting: resulting)
        try InviteLinksV1.validateTransition(from: parent.inviteLinks, to: resulting.inviteLinks, facts: facts)
    }
}

extension MarmotGroup {
    /// SHA-256 of the serialized Commit `MLSMessage` inside `pending`'s event: the `commit_hash`
    /// an `invited` status names (PROTOCOL §5.14.6), the same digest convergence records. Only
    /// for a Commit built on the current epoch (`invalid_event` otherwise).
    public func commitMessageHash(of pending: MarmotPendingCommit<Engine>) throws -> [UInt8] {
        let sealed = try MarmotGroupEvent.envelope(pending.event, profile: profile, now: pending.event.createdAt).sealed
        guard pending.fromEpoch == state.epoch, let message = Self.open(sealed, in: state) else {
            throw MLSError(.invalidEvent, "the pending commit does not open under this epoch's key")
        }
        return SHA256.hash(message)
    }
}

extension MarmotGroup {
    /// Whether the selected branch's retained history holds the Commit whose MLSMessage hash is
    /// `commitHash` (``commitMessageHash(of:)``), and that Commit added `account`: the evidence an
    /// admin's invited claim needs before another admin projects its realization
    /// (`features/group-invite-links.md` "Processing private control records"; PROTOCOL §5.14.15).
    /// Only the retained epochs are searched; an older Commit is missing evidence, not a refusal.
    public func retainsCommit(_ commitHash: [UInt8], adding account: [UInt8]) -> Bool {
        snapshots.contains { $0.commitDigest == commitHash && $0.added.contains(account) }
    }
}

extension MarmotGroup {
    /// Whether the Commit event `commitEventID`, built on `epoch`, is on the selected branch: the
    /// retained snapshot for `epoch` names it, or `epoch` is older than every retained snapshot
    /// (past the rollback horizon no branch can replace it). A Commit no retained epoch names
    /// while the group is at or below `epoch` was rolled back. What decides whether an own Add's
    /// Welcomes are released (PROTOCOL §5.13, "Welcome hold").
    public func selectedBranchHolds(commitEventID: String, builtOn epoch: UInt64) -> Bool {
        if let snapshot = snapshots.first(where: { $0.epoch == epoch }) { return snapshot.eventID == commitEventID.lowercased() }
        return epoch < state.epoch && snapshots.allSatisfy { epoch < $0.epoch }
    }
}
