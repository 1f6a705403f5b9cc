import InviteKitCrypto
import InviteKitNostr

/// Admin records inside MLS (`transports/nostr-invite-links.md` "Admin delivery inside MLS";
/// `foundation/invite-link-records.md` "Admin app batches"; PROTOCOL §5.14.12): each record is a
/// kind 461 rumor with no tags, sealed by the sending admin and gift-wrapped to one recipient
/// admin; the wrap travels as its RFC 8785 JSON in an ``InviteAdminBatchV1`` envelope, and the
/// batch is the content of an unsigned kind 461 Marmot app event sent through the group.
public enum InviteAdminBatchDelivery {
    /// One record for one recipient admin account.
    public struct Copy: Sendable {
        public let recipient: [UInt8]
        public let record: InviteAdminRecordV1

        public init(recipient: [UInt8], record: InviteAdminRecordV1) {
            self.recipient = recipient
            self.record = record
        }
    }

    /// Wraps each copy from `admin` and gathers them into one batch (at most sixteen recipients
    /// and 262144 bytes; the caller splits larger sets).
    public static func make(_ copies: [Copy], admin: Secp256k1.PrivateKey, now: Int64, rng: RandomSource = SystemRandom()) throws -> InviteAdminBatchV1 {
        let envelopes = try copies.map { copy in
            let recipient = try Secp256k1.XOnlyPublicKey(rawRepresentation: copy.recipient)
            let rumor = EventTemplate(kind: InviteLinkNostr.adminRecordKind, content: copy.record.content, tags: [])
                .rumor(pubkey: admin.publicKey, now: now)
            let wrap = try InviteLinkNostr.wrap(rumor, from: admin, to: recipient, now: now, rng: rng)
            return try InviteAdminBatchV1.Envelope(recipientAccount: copy.recipient, transportEnvelope: wrap.canonicalJSONBytes)
        }
        return try InviteAdminBatchV1(envelopes: envelopes)
    }

    /// Opens the copy addressed to `me` in a batch that arrived in an MLS application message from
    /// `sender`, authored in group `groupID` at `sourceEpoch`, whose admins then were `admins`.
    /// Refuses (`invite_unauthorized`) a batch whose sender or any recipient was not an admin of that
    /// state; refuses (`invalid_invite_record`) an envelope that is not canonical gift-wrap JSON with
    /// exactly the recipient's `p` tag, a rumor not sealed by `sender`, or a record naming another
    /// group or epoch. Returns nil when the batch holds no copy for `me`.
    public static func open(_ batch: InviteAdminBatchV1, me: Secp256k1.PrivateKey, sender: [UInt8], groupID: [UInt8], sourceEpoch: UInt64,
                            admins: Set<[UInt8]>) throws -> InviteAdminRecordV1? {
        guard admins.contains(sender) else { throw MLSError(.inviteUnauthorized, "the batch's sender was not an admin at its source epoch") }
        guard batch.envelopes.allSatisfy({ admins.contains($0.recipientAccount) }) else {
            throw MLSError(.inviteUnauthorized, "a batch recipient was not an admin at its source epoch")
        }
        let myAccount = me.publicKey.rawRepresentation
        guard let envelope = batch.envelopes.first(where: { $0.recipientAccount == myAccount }) else { return nil }
        let wrap: NostrEvent
        do { wrap = try NostrEvent(canonicalJSON: envelope.transportEnvelope, maxBytes: InviteLinkNostr.maxGiftWrapJSONBytes) } catch {
            throw MLSError(.invalidInviteRecord, "admin envelope: \(error.code.rawValue)")
        }
        guard wrap.tags == [["p", Hex.encode(myAccount)]] else {
            throw MLSError(.invalidInviteRecord, "an admin envelope carries exactly its recipient's p tag")
        }
        let gift = try InviteLinkNostr.unwrap(wrap, recipient: me, kind: InviteLinkNostr.adminRecordKind)
        guard gift.sender.rawRepresentation == sender else {
            throw MLSError(.invalidInviteRecord, "the admin record was not sealed by the MLS sender")
        }
        let record = try InviteAdminRecordV1(content: gift.rumor.content)
        guard record.groupID == groupID, record.sourceEpoch == sourceEpoch else {
            throw MLSError(.invalidInviteRecord, "the admin record names another group or source epoch")
        }
        return record
    }
}
