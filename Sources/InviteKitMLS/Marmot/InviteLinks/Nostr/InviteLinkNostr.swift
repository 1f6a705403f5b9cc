import InviteKitCrypto
import InviteKitNostr

/// The Nostr binding of invite links v1, in one place: its kinds and its size limits
/// (`transports/nostr-invite-links.md` "Preview descriptor", "Request delivery and package
/// evidence", "Status delivery", "Limits and privacy"; PROTOCOL §5.14.12).
public enum InviteLinkNostr {
    /// The encrypted preview, signed by the inbox key; parameterized-replaceable under `d`.
    public static let descriptorKind = 30444
    /// The requester's request or withdrawal rumor, gift-wrapped to the inbox.
    public static let requestKind = 459
    /// An admin's status rumor, gift-wrapped to the requester's account.
    public static let statusKind = 460
    /// The admin record rumor (and the unsigned Marmot app event carrying a batch of them).
    public static let adminRecordKind = 461
    /// The largest NIP-44 plaintext either gift-wrap layer may carry: the rumor, and the seal.
    public static let maxLayerPlaintextBytes = 65535
    /// The largest gift-wrap JSON a receiver reads.
    public static let maxGiftWrapJSONBytes = 90000

    /// Seals and wraps `rumor` from `sender` to `recipient` after checking both plaintext layers
    /// against ``maxLayerPlaintextBytes``: oversized records are a local capacity error
    /// (`invite_capacity`), never truncated.
    static func wrap(_ rumor: NostrEvent, from sender: Secp256k1.PrivateKey, to recipient: Secp256k1.XOnlyPublicKey,
                     now: Int64, rng: RandomSource) throws -> NostrEvent {
        let rumorBytes = rumor.jsonBytes.count
        let sealBytes = sealJSONBytes(forPlaintext: rumorBytes)
        guard rumorBytes <= maxLayerPlaintextBytes, sealBytes <= maxLayerPlaintextBytes else {
            throw MLSError(.inviteCapacity, "the record's gift-wrap layers would be \(rumorBytes) and \(sealBytes) bytes, over \(maxLayerPlaintextBytes)")
        }
        return try GiftWrap.wrap(rumor, from: sender, to: recipient, now: now, using: rng)
    }

    /// Opens a gift wrap to `recipient` whose rumor must be of `kind` with no tags, after bounding
    /// the wrap's JSON (``maxGiftWrapJSONBytes``) and both decrypted layers.
    static func unwrap(_ wrap: NostrEvent, recipient: Secp256k1.PrivateKey, kind: Int) throws -> UnwrappedGift {
        guard wrap.jsonBytes.count <= maxGiftWrapJSONBytes else {
            throw MLSError(.invalidInviteRecord, "gift wrap is above \(maxGiftWrapJSONBytes) bytes")
        }
        let gift: UnwrappedGift
        do { gift = try GiftWrap.unwrap(wrap, recipient: recipient) } catch {
            throw MLSError(.invalidInviteRecord, "gift wrap does not open: \(error.code.rawValue)")
        }
        guard gift.seal.jsonBytes.count <= maxLayerPlaintextBytes, gift.rumor.jsonBytes.count <= maxLayerPlaintextBytes else {
            throw MLSError(.invalidInviteRecord, "a decrypted gift-wrap layer is above \(maxLayerPlaintextBytes) bytes")
        }
        guard gift.rumor.kind == kind else { throw MLSError(.invalidInviteRecord, "rumor is kind \(gift.rumor.kind), not \(kind)") }
        guard gift.rumor.tags.isEmpty else { throw MLSError(.invalidInviteRecord, "an invite-link rumor carries no tags") }
        return gift
    }

    /// The exact JSON size of a seal whose NIP-44 plaintext is `length` bytes: the payload is
    /// base64 of version, nonce, length prefix, padded plaintext and MAC; the other fields have
    /// fixed sizes (a ten-digit `created_at`).
    package static func sealJSONBytes(forPlaintext length: Int) -> Int {
        let payload = 1 + 32 + NIP44.prefixLength(length) + NIP44.paddedLength(length) + 32
        let content = String(repeating: "A", count: (payload + 2) / 3 * 4)
        let hex64 = String(repeating: "0", count: 64)
        return NostrEvent(id: hex64, pubkey: hex64, createdAt: 1_000_000_000, kind: GiftWrap.sealKind, tags: [], content: content,
                          sig: hex64 + hex64).jsonBytes.count
    }
}
