import InviteKitCrypto
import InviteKitInvites
import InviteKitStore

extension InviteKitNode {
    /// Creates a signed invite (PROTOCOL §3) for a hosted group with its current tag, and records it.
    public func createInvite(groupID: String, singleUse: Bool, expiresIn: Int64?) throws(InviteKitError) -> StoredInvite {
        try requireOpen()
        return try createInvite(groupID: groupID, format: .signed, singleUse: singleUse, expiresIn: expiresIn)
    }

    /// Creates an invite for a hosted group and records it in `invites` (docs/storage.md §6).
    ///
    /// - `.signed`: a signed invite (§3) with the group's current tag and its first
    ///   `InvitePayload.maxRelays` relays (§3.2). Each is its own row, keyed
    ///   by SHA-256 of its payload; a single-use one is used up on its own (§3.7), and rotating
    ///   the tag (``revokeInvites(groupID:)``) revokes every invite of the old tag.
    /// - `.whistle`: a Whistle code (§2) `{relay: the group's first relay, inviterNpub: this node,
    ///   groupId: the group's Nostr group id}`. It has no signature, tag, expiry or single-use
    ///   flag, so each join through it waits for an admin (§8.3 rule 5) and rotating the tag does
    ///   not revoke it. Asking for `singleUse` or `expiresIn` throws `invite_invalid`
    ///   (`whistle_no_single_use`, `whistle_no_expiry`) rather than silently dropping them. Its
    ///   row's key is `whistle:<nostr group id>`: every Whistle code of a group is the same code.
    public func createInvite(groupID: String, format: StoredInvite.Format, singleUse: Bool,
                             expiresIn: Int64?) throws(InviteKitError) -> StoredInvite {
        try requireOpen()
        return try InviteKitError.mapping { try makeInvite(groupID: groupID, format: format, singleUse: singleUse, expiresIn: expiresIn) }
    }

    private func makeInvite(groupID: String, format: StoredInvite.Format, singleUse: Bool, expiresIn: Int64?) throws -> StoredInvite {
        let id = try groupRow(groupID).id
        guard let group = hostedGroup(id) else { throw InviteKitError(.notPermitted, underlyingCode: "not_hosted") }
        let now = currentTime()
        let invite: StoredInvite
        switch format {
        case .signed:
            // A group may have more relays (16, §5.12) than an invite may name; the node reads join
            // requests on all of them, so the first eight reach it.
            let options = InviteOptions(relays: Array(group.relays.prefix(InvitePayload.maxRelays)), name: group.name, expiresAtUnix: expiresIn.map { now + $0 },
                                        singleUse: singleUse, tag: group.currentTag, mipProfile: group.group.profile == .mip)
            let signed = try SignedInvite.create(conversationID: id, creator: signingKey, options: options, using: randomSource)
            invite = StoredInvite(id: Hex.encode(SHA256.hash(signed.payloadBytes)), tag: group.currentTag, groupID: id, format: .signed,
                                  url: try signed.url(), singleUse: singleUse, expiresAt: expiresIn.map { now + $0 }, createdAt: now)
        case .whistle:
            if singleUse { throw InviteKitError(.inviteInvalid, underlyingCode: "whistle_no_single_use") }
            if expiresIn != nil { throw InviteKitError(.inviteInvalid, underlyingCode: "whistle_no_expiry") }
            guard let relay = group.relays.first else { throw InviteKitError(.inviteInvalid, underlyingCode: "no_relay") }
            let code: InviteCode
            do { code = try InviteCode(checkedRelay: relay, inviter: publicKey, groupId: group.nostrGroupID) } catch {
                throw InviteKitError.from(error)
            }
            invite = StoredInvite(id: "whistle:" + group.nostrGroupID, tag: "whistle:" + group.nostrGroupID, groupID: id, format: .whistle,
                                  url: code.url, singleUse: false, expiresAt: nil, createdAt: now)
        }
        // A Whistle code of a group is always the same code: one row.
        if try store.read({ tx in try tx.invites.get(id: invite.id) }) == nil { try recordInvite(invite) }
        return invite
    }

    /// Whether the invite with `inviteID` (`StoredInvite.id`) was used: a single-use invite is
    /// ``InviteUse/used`` once a join through it was accepted (a Commit no relay stored gives
    /// it back, PROTOCOL §8.2), and a multi-use invite or Whistle code is always
    /// ``InviteUse/reusable``. Throws `invite_invalid` (`invite_not_found`) for an id this node
    /// did not make.
    public func inviteUse(_ inviteID: String) throws(InviteKitError) -> InviteUse {
        try requireOpen()
        return try InviteKitError.mapping {
            guard let invite = try store.read({ tx in try tx.invites.get(id: inviteID) }) else {
                throw InviteKitError(.inviteInvalid, underlyingCode: "invite_not_found")
            }
            guard invite.singleUse, invite.format == .signed else { return .reusable }
            // The keys the join decision consumes (PROTOCOL §3.7), including the per-tag key of
            // consumptions recorded before per-invite keys.
            let signed = try SignedInvite(link: invite.url)
            let keys = [InviteValidator.consumedKey(creator: publicKey, invite: signed),
                        InviteValidator.legacyConsumedKey(creator: publicKey, tag: invite.tag)]
            let used = try store.read { tx in try keys.contains { try tx.consumedTags.isConsumed($0) } }
            return used ? .used : .unused
        }
    }
}
