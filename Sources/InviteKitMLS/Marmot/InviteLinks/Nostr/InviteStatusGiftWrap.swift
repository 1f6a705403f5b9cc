import InviteKitCrypto
import InviteKitNostr

/// Statuses on the wire (`transports/nostr-invite-links.md` "Status delivery"; PROTOCOL
/// §5.14.12): a kind 460 rumor with no tags whose content is ``InviteStatusV1``, authored and
/// sealed by an admin account, gift-wrapped to the requester's account, never to the link inbox.
public enum InviteStatusGiftWrap {
    public static func make(_ status: InviteStatusV1, admin: Secp256k1.PrivateKey, now: Int64,
                            rng: RandomSource = SystemRandom()) throws -> NostrEvent {
        let requester = try Secp256k1.XOnlyPublicKey(rawRepresentation: status.context.requesterAccount)
        let rumor = EventTemplate(kind: InviteLinkNostr.statusKind, content: status.content, tags: []).rumor(pubkey: admin.publicKey, now: now)
        return try InviteLinkNostr.wrap(rumor, from: admin, to: requester, now: now, rng: rng)
    }

    /// Opens a status wrap to `account`; the status must name `account` as its requester. Returns
    /// the seal's author, to whom the claim is attributed (``InviteLinkJoinAttempt/receive(_:author:)``).
    public static func open(_ wrap: NostrEvent, account: Secp256k1.PrivateKey) throws -> (author: [UInt8], status: InviteStatusV1) {
        let gift = try InviteLinkNostr.unwrap(wrap, recipient: account, kind: InviteLinkNostr.statusKind)
        let status = try InviteStatusV1(content: gift.rumor.content)
        guard status.context.requesterAccount == account.publicKey.rawRepresentation else {
            throw MLSError(.invalidInviteRecord, "the status names another requester")
        }
        return (gift.sender.rawRepresentation, status)
    }
}
