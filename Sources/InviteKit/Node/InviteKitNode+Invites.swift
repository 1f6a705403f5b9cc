import InviteKitCrypto
import InviteKitInvites
import InviteKitStore

extension InviteKitNode {
    /// Creates a signed invite (PROTOCOL §3) for a hosted group with its current tag, and records it.
    public func createInvite(groupID: String, singleUse: Bool, expiresIn: Int64?) throws -> StoredInvite {
        guard let group = hostedGroup(groupID) else { throw StoreError(.notFound, "no hosted group \(groupID)") }
        let now = currentTime()
        let options = InviteOptions(relays: group.relays, name: group.name, expiresAtUnix: expiresIn.map { now + $0 },
                                    singleUse: singleUse, tag: group.currentTag)
        let url = try SignedInvite.create(conversationID: groupID, creator: signingKey, options: options, using: randomSource).url()
        let invite = StoredInvite(tag: group.currentTag, groupID: groupID, format: .signed, url: url, singleUse: singleUse,
                                  expiresAt: expiresIn.map { now + $0 }, createdAt: now)
        // One row per tag: a second invite with the same tag shares its revocation.
        if try store.read({ tx in try tx.invites.get(tag: invite.tag) }) == nil { try recordInvite(invite) }
        return invite
    }
}
