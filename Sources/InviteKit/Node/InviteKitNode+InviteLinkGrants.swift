import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr
import InviteKitStore

/// Grants of invite-link generations to the group's other admins (PROTOCOL §5.14.15;
/// `features/group-invite-links.md` "Creating and sharing"; `transports/nostr-invite-links.md`
/// "Admin delivery inside MLS"): the creator sends one kind 461 app event whose content is an
/// `InviteAdminBatchV1` holding, for each other admin, a grant gift-wrapped to that admin; an admin
/// that opens its copy stores the generation and from then on reads and decides the link's requests.
extension InviteKitNode {
    /// Sends the grant of `linkID` (hex) to every other current admin it was not sent to yet, as
    /// kind 461 group messages authored at the current epoch; each message and the record of its
    /// recipients are one transaction, so an admin promoted later gets the grant from the next
    /// settle (``grantPromotedAdmins()``) and nobody gets it twice. Nothing is sent when this
    /// node is no admin or every other admin has it.
    func sendInviteGrants(linkID: String, groupID: String) throws {
        let group = try currentGroup(groupID)
        guard group.isAdmin, let row = try store.read({ tx in try tx.inviteLinks.get(linkID: linkID) }), row.state == .active else { return }
        var granted = Set(row.grantedAdmins)
        let others = group.groupData.admins.filter { $0 != publicKey.rawRepresentation && !granted.contains(Hex.encode($0)) }
        guard !others.isEmpty else { return }
        let generation = try InviteLinkGeneration(serialized: row.generation)
        guard group.inviteLinks?.links.contains(generation.entry) == true else { return }
        let record = try generation.grant(groupID: group.state.groupID, sourceEpoch: group.epoch)
        let now = currentTime()
        try sendInviteAdminRecord(record, groupID: groupID, to: others) { tx, recipients in
            granted.formUnion(recipients.map { Hex.encode($0) })
            try tx.inviteLinks.setGrantedAdmins(linkID: linkID, Array(granted), now: now)
        }
    }

    /// The grants owed to admins promoted after a link was made (PROTOCOL §5.14.15, 5): for every
    /// active link this node made, in a group it still administers.
    func grantPromotedAdmins() throws {
        let made = try store.read { tx in try tx.inviteLinks.all() }.filter { $0.state == .active && $0.commitEventID != nil }
        for link in made {
            guard let entry = registry[link.groupID], !entry.removed, entry.group.isAdmin,
                  entry.group.groupData.lifecycle != .disbanded else { continue }
            // A failure (say, a full store) leaves the grant owed: the next round tries again.
            try? sendInviteGrants(linkID: link.linkID, groupID: link.groupID)
        }
    }

    /// Takes a kind 461 app event of group `groupID` that arrived at MLS epoch `epoch`, inside the
    /// transaction saving it: the copy for this node, if any, opened and checked against the
    /// sender's and recipients' admin rights and the selected state's entry; a grant is stored
    /// as an `active` generation unless this node already holds the link, a decision goes to
    /// ``receiveInviteDecision(_:from:groupID:group:in:now:)``. Throws the typed refusal
    /// (the caller reports it; the MLS processing stands).
    func receiveInviteAdminBatch(_ inner: NostrEvent, epoch: UInt64, groupID: String, group: MarmotMLSGroup,
                                 in tx: StoreTransaction, now: Int64) throws {
        let maxContent = (InviteAdminBatchV1.maxVectorBytes + 8) / 3 * 4 + 4
        guard inner.tags.isEmpty, inner.content.utf8.count <= maxContent, let bytes = Base64.decode(inner.content) else {
            throw InviteKitError(.inviteInvalid, underlyingCode: "invalid_invite_record", context: "a kind 461 batch is padded base64 without tags")
        }
        let batch = try InviteAdminBatchV1(decoding: bytes)
        guard let sender = Hex.decode(inner.pubkey, count: 32) else { throw InviteKitError(.inviteInvalid, underlyingCode: "invalid_invite_record") }
        guard let record = try InviteAdminBatchDelivery.open(batch, me: signingKey, sender: sender, groupID: group.state.groupID,
                                                             sourceEpoch: epoch, admins: Set(group.groupData.admins)) else { return }
        guard case .grant = record.action else {
            return try receiveInviteDecision(record, from: sender, groupID: groupID, group: group, in: tx, now: now)
        }
        let generation = try InviteLinkGeneration(grant: record, current: group.inviteLinks ?? .empty)
        let linkID = Hex.encode(generation.entry.linkID)
        guard try tx.inviteLinks.get(linkID: linkID) == nil else { return }
        try tx.inviteLinks.insert(InviteLinkRecord(linkID: linkID, groupID: groupID, generation: generation.serialized(), state: .active,
                                                   commitEventID: nil, createdAt: now, updatedAt: now))
    }
}
