import InviteKitCrypto

extension EventTemplate {
    /// Signs the template ([NIP-01](https://github.com/nostr-protocol/nips/blob/master/01.md)).
    /// `createdAt` falls back to `now`.
    public func signed(by key: Secp256k1.PrivateKey, now: Int64 = UnixTime.now(), using rng: RandomSource = SystemRandom()) throws -> NostrEvent {
        let pubkey = key.publicKey.hex
        let created = createdAt ?? now
        let id = NostrEvent.computeId(pubkey: pubkey, createdAt: created, kind: kind, tags: tags, content: content)
        let sig = try key.schnorrSignature(for: id, using: rng)
        return NostrEvent(id: Hex.encode(id), pubkey: pubkey, createdAt: created, kind: kind, tags: tags, content: content, sig: Hex.encode(sig))
    }

    /// An unsigned rumor ([NIP-59](https://github.com/nostr-protocol/nips/blob/master/59.md)) authored by `pubkey`.
    public func rumor(pubkey: Secp256k1.XOnlyPublicKey, now: Int64 = UnixTime.now()) -> NostrEvent {
        let created = createdAt ?? now
        let id = NostrEvent.computeId(pubkey: pubkey.hex, createdAt: created, kind: kind, tags: tags, content: content)
        return NostrEvent(id: Hex.encode(id), pubkey: pubkey.hex, createdAt: created, kind: kind, tags: tags, content: content, sig: nil)
    }
}

extension NostrEvent {
    /// Checks that the id matches the fields and that `sig` is the author's BIP-340 signature of
    /// it. Returns the parsed author key, so callers need not parse it (a square root) again.
    @discardableResult
    public func verify() throws(NostrError) -> Secp256k1.XOnlyPublicKey {
        try verifyId()
        guard let sig, let sigBytes = Hex.decode(sig, count: 64) else { throw NostrError(.invalidSignature, "event has no signature") }
        let key = try authorKey()
        guard key.isValidSchnorrSignature(sigBytes, for: Hex.decode(id)!) else {
            throw NostrError(.invalidSignature, "signature does not verify")
        }
        return key
    }

    /// Checks only that the id matches the fields (rumors have no signature).
    public func verifyId() throws(NostrError) {
        guard computedId == id else { throw NostrError(.invalidId, "id does not match the event fields") }
    }

    /// The author's key, parsed.
    public func authorKey() throws(NostrError) -> Secp256k1.XOnlyPublicKey {
        guard let pk = Hex.decode(pubkey, count: 32), let key = try? Secp256k1.XOnlyPublicKey(rawRepresentation: pk) else {
            throw NostrError(.invalidKey, "pubkey is not a valid secp256k1 x-only key")
        }
        return key
    }
}
