import InviteKitCrypto
import InviteKitInvites
import InviteKitStore

extension InviteKitNode {
    /// Creates a signed invite (PROTOCOL §3) for a hosted group with its current tag, and records it.
    public func createInvite(groupID: String, singleUse: Bool, expiresIn: Int64?) throws -> StoredInvite {
        try createInvite(groupID: groupID, format: .signed, singleUse: singleUse, expiresIn: expiresIn)
    }

    /// Creates an invite for a hosted group and records it in `invites` (PROTOCOL §11.3).
    ///
    /// - `.signed`: a signed invite (§3) with the group's current tag; one row per tag.
    /// - `.whistle`: a Whistle code (§2) `{relay: the group's first relay, inviterNpub: this node,
    ///   groupId: the group's Nostr group id}`. It has no signature, tag, expiry or single-use
    ///   flag, so each join through it waits for an admin (§8.3 rule 5) and rotating the tag does
    ///   not revoke it. Asking for `singleUse` or `expiresIn` throws `invite_invalid`
    ///   (`whistle_no_single_use`, `whistle_no_expiry`) rather than silently dropping them. Its
    ///   row's key is `whistle:<nostr group id>`: every Whistle code of a group is the same code.
    public func createInvite(groupID: String, format: StoredInvite.Format, singleUse: Bool, expiresIn: Int64?) throws -> StoredInvite {
        guard let group = hostedGroup(groupID) else { throw StoreError(.notFound, "no hosted group \(groupID)") }
        let now = currentTime()
        let invite: StoredInvite
        switch format {
        case .signed:
            let options = InviteOptions(relays: group.relays, name: group.name, expiresAtUnix: expiresIn.map { now + $0 },
                                        singleUse: singleUse, tag: group.currentTag)
            let url = try SignedInvite.create(conversationID: groupID, creator: signingKey, options: options, using: randomSource).url()
            invite = StoredInvite(tag: group.currentTag, groupID: groupID, format: .signed, url: url, singleUse: singleUse,
                                  expiresAt: expiresIn.map { now + $0 }, createdAt: now)
        case .whistle:
            if singleUse { throw InviteKitError(.inviteInvalid, underlyingCode: "whistle_no_single_use") }
            if expiresIn != nil { throw InviteKitError(.inviteInvalid, underlyingCode: "whistle_no_expiry") }
            guard let relay = group.relays.first else { throw InviteKitError(.inviteInvalid, underlyingCode: "no_relay") }
            let code: InviteCode
            do { code = try InviteCode(checkedRelay: relay, inviter: publicKey, groupId: group.nostrGroupID) } catch {
                throw InviteKitError.from(error)
            }
            invite = StoredInvite(tag: "whistle:" + group.nostrGroupID, groupID: groupID, format: .whistle, url: code.url, singleUse: false,
                                  expiresAt: nil, createdAt: now)
        }
        // One row per tag: a second invite with the same tag shares its revocation.
        if try store.read({ tx in try tx.invites.get(tag: invite.tag) }) == nil { try recordInvite(invite) }
        return invite
    }
}
