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
    /// Sends the grant of `linkID` (hex) to every other current admin of the group as one kind 461
    /// group message, authored at the current epoch. Nothing is sent when there is no other admin.
    func sendInviteGrants(linkID: String, groupID: String) throws {
        let group = try currentGroup(groupID)
        let others = group.groupData.admins.filter { $0 != publicKey.rawRepresentation }
        guard !others.isEmpty, group.isAdmin else { return }
        guard let row = try store.read({ tx in try tx.inviteLinks.get(linkID: linkID) }) else { return }
        let generation = try InviteLinkGeneration(serialized: row.generation)
        try sendInviteAdminRecord(try generation.grant(groupID: group.state.groupID, sourceEpoch: group.epoch), groupID: groupID)
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
