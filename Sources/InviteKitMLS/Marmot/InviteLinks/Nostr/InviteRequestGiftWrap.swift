import InviteKitCrypto
import InviteKitNostr

/// Requests and withdrawals on the wire (`transports/nostr-invite-links.md` "Request delivery
/// and package evidence"; PROTOCOL §5.14.12): a kind 459 rumor with no tags whose content is
/// ``NostrInviteRequestV1``, authored and sealed by the requester account, gift-wrapped to the
/// code's inbox.
public enum InviteRequestGiftWrap {
    /// Wraps `operation` from `account` to the inbox named by its context. The record's
    /// requester account must be `account`.
    public static func make(_ operation: NostrInviteRequestV1.Operation, account: Secp256k1.PrivateKey,
                            now: Int64, rng: RandomSource = SystemRandom()) throws -> NostrEvent {
        let context = operation.context
        guard account.publicKey.rawRepresentation == context.requesterAccount else {
            throw MLSError(.invalidInviteRecord, "the record names another requester account")
        }
        let inbox = try Secp256k1.XOnlyPublicKey(rawRepresentation: context.inboxPublicKey)
        let content = try NostrInviteRequestV1(operation).content
        let rumor = EventTemplate(kind: InviteLinkNostr.requestKind, content: content, tags: []).rumor(pubkey: account.publicKey, now: now)
        return try InviteLinkNostr.wrap(rumor, from: account, to: inbox, now: now, rng: rng)
    }

    /// Opens a wrap delivered to the inbox whose private key is `inboxKey`: every NIP-59 layer,
    /// the rumor's kind and empty tags, the record, then the bindings a sender cannot choose: the
    /// seal's author is the record's requester account, and the record names this inbox. The
    /// device-signed record itself is the caller's to admit (``InviteRequestLedger``).
    public static func open(_ wrap: NostrEvent, inboxKey: Secp256k1.PrivateKey) throws -> NostrInviteRequestV1.Operation {
        let gift = try InviteLinkNostr.unwrap(wrap, recipient: inboxKey, kind: InviteLinkNostr.requestKind)
        let operation = try NostrInviteRequestV1(content: gift.rumor.content).operation
        let context = operation.context
        guard gift.sender.rawRepresentation == context.requesterAccount else {
            throw MLSError(.invalidInviteRecord, "the seal's author is not the record's requester account")
        }
        guard context.inboxPublicKey == inboxKey.publicKey.rawRepresentation else {
            throw MLSError(.invalidInviteRecord, "the record names another inbox")
        }
        return operation
    }
}

extension NostrInviteRequestV1.Operation {
    /// The request context either operation carries.
    public var context: InviteRequestContextV1 {
        switch self {
        case .request(let r): return r.tbs.context
        case .withdrawal(let w): return w.context
        }
    }
}
