import InviteKitCrypto
import InviteKitNostr

/// The kind 30444 preview descriptor (`transports/nostr-invite-links.md` "Preview descriptor";
/// PROTOCOL §5.14.12): authored by the inbox key, tags exactly `[["d", hex(link_id)]]`, content
/// the encrypted preview.
public enum InvitePreviewDescriptorEvent {
    /// Signs the descriptor of `preview` with the link's inbox key, encrypting under `previewKey`.
    public static func make(_ preview: InvitePreviewV1, previewKey: SecureBytes, inboxKey: Secp256k1.PrivateKey,
                            now: Int64, rng: RandomSource = SystemRandom()) throws -> NostrEvent {
        guard inboxKey.publicKey.rawRepresentation == preview.inboxPublicKey else {
            throw MLSError(.invalidInvitePreview, "the descriptor must be signed by the preview's inbox key")
        }
        let content = try preview.descriptorContent(previewKey: previewKey, random: rng)
        return try EventTemplate(kind: InviteLinkNostr.descriptorKind, content: content, tags: [["d", Hex.encode(preview.linkID)]],
                                 createdAt: now).signed(by: inboxKey, using: rng)
    }

    /// The NIP-09 deletion request a revoking admin sends for a link's descriptor (PROTOCOL
    /// §5.14.15 "Revocation"): kind 5 by the inbox key, naming the descriptor by its address
    /// (`a` `30444:inbox:link`, so every version goes) and, when known, by its id (`e`). A relay
    /// that honours it answers a later preview with nothing, so the requester learns the link is
    /// gone before consenting, instead of waiting on an inbox that no admin reads.
    public static func deletion(linkID: [UInt8], descriptorEventID: String?, inboxKey: Secp256k1.PrivateKey, now: Int64,
                                rng: RandomSource = SystemRandom()) throws -> NostrEvent {
        var tags: [[String]] = descriptorEventID.map { [["e", $0]] } ?? []
        tags.append(["a", "\(InviteLinkNostr.descriptorKind):\(inboxKey.publicKey.hex):\(Hex.encode(linkID))"])
        tags.append(["k", String(InviteLinkNostr.descriptorKind)])
        return try EventTemplate(kind: 5, content: "invite link revoked", tags: tags, createdAt: now).signed(by: inboxKey, using: rng)
    }

    /// Verifies and opens one descriptor for `code`: NIP-01 id and signature first, then kind,
    /// author (the code's inbox), tags (exactly the `d` tag of the code's link id, lowercase hex),
    /// then decryption and the preview's match with the code.
    public static func open(_ event: NostrEvent, code: InviteCodeV1) throws -> InvitePreviewV1 {
        do { _ = try event.verify() } catch { throw MLSError(.invalidInvitePreview, "descriptor: \(error.code.rawValue)") }
        guard event.kind == InviteLinkNostr.descriptorKind else { throw MLSError(.invalidInvitePreview, "descriptor is kind \(event.kind)") }
        guard event.pubkey == Hex.encode(code.inboxPublicKey) else { throw MLSError(.invalidInvitePreview, "descriptor is not by the code's inbox") }
        guard event.tags == [["d", Hex.encode(code.linkID)]] else {
            throw MLSError(.invalidInvitePreview, "descriptor tags must be exactly the link's d tag")
        }
        return try InvitePreviewV1.open(descriptorContent: event.content, code: code)
    }

    /// The descriptor a requester shows from fetched `events`: of those that open for `code`, the
    /// latest `created_at`, then the lowest id (NIP-01 replacement order). The timestamp picks a
    /// descriptor only; it proves nothing about consent or group state.
    public static func select(_ events: [NostrEvent], code: InviteCodeV1) -> (event: NostrEvent, preview: InvitePreviewV1)? {
        var best: (event: NostrEvent, preview: InvitePreviewV1)?
        for e in events {
            if let b = best, e.createdAt < b.event.createdAt || (e.createdAt == b.event.createdAt && e.id >= b.event.id) { continue }
            guard let preview = try? open(e, code: code) else { continue }
            best = (e, preview)
        }
        return best
    }
}
