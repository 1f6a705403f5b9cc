import InviteKitCrypto

extension GiftWrap {
    /// Largest decrypted seal or rumor JSON accepted.
    public static let maxInnerJSONBytes = NostrEvent.defaultMaxJSONBytes

    /// Opens a gift wrap addressed to `recipient`, checking in this order: wrap kind, wrap id and
    /// signature, `p` tag (when present) names the recipient, decryption, seal kind, seal id and
    /// signature, seal has no tags, decryption, rumor id recomputed, rumor.pubkey == seal.pubkey.
    public static func unwrap(_ wrap: NostrEvent, recipient: Secp256k1.PrivateKey) throws(NostrError) -> UnwrappedGift {
        guard wrap.kind == wrapKind else { throw NostrError(.wrongKind, "gift wrap must be kind \(wrapKind), got \(wrap.kind)") }
        let oneTimeKey = try wrap.verify()
        let pTags = wrap.tagValues("p")
        if !pTags.isEmpty, !pTags.contains(recipient.publicKey.hex) {
            throw NostrError(.notForRecipient, "gift wrap is addressed to another key")
        }
        let sealJSON = try NIP44.decrypt(wrap.content, recipient: recipient, sender: oneTimeKey)
        let seal = try NostrEvent(json: sealJSON, requireSignature: true, maxBytes: maxInnerJSONBytes)
        guard seal.kind == sealKind else { throw NostrError(.wrongKind, "seal must be kind \(sealKind), got \(seal.kind)") }
        let sender = try seal.verify()
        guard seal.tags.isEmpty else { throw NostrError(.invalidField, "seal must have no tags") }
        let rumorJSON = try NIP44.decrypt(seal.content, recipient: recipient, sender: sender)
        var rumor = try NostrEvent(json: rumorJSON, requireSignature: false, maxBytes: maxInnerJSONBytes)
        guard rumor.pubkey == seal.pubkey else {
            throw NostrError(.senderMismatch, "rumor author differs from the seal's signer")
        }
        guard rumor.computedId == rumor.id else {
            throw NostrError(.rumorIdMismatch, "rumor id does not match its fields")
        }
        rumor.sig = nil
        return UnwrappedGift(sender: sender, rumor: rumor, seal: seal, wrap: wrap)
    }

    /// Opens many wraps; a hostile or foreign wrap is reported in `failed` with its error and
    /// never stops the batch. An exact copy of a wrap already seen (the same event from two
    /// relays) is skipped; a different event reusing a seen id is still checked, so a forgery
    /// cannot suppress the genuine wrap by arriving first.
    public static func unwrapBatch(_ wraps: [NostrEvent], recipient: Secp256k1.PrivateKey) -> BatchResult<UnwrappedGift, NostrEvent> {
        var result = BatchResult<UnwrappedGift, NostrEvent>()
        var seen = Set<NostrEvent>()
        for w in wraps {
            guard seen.insert(w).inserted else { continue }
            do { result.succeeded.append(try unwrap(w, recipient: recipient)) } catch {
                result.failed.append(.init(input: w, error: error))
            }
        }
        return result
    }
}
