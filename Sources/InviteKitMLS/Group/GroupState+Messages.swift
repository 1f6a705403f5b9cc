import InviteKitCrypto

extension GroupState {
    /// Signs a non-commit group event of this epoch (application or self-remove proposal).
    public func sign(contentType: GroupEventPlaintext.ContentType, body: [UInt8]) -> GroupEventPlaintext {
        var pt = GroupEventPlaintext(contentType: contentType, epoch: epoch, senderIndex: UInt32(ownIndex), body: body)
        pt.signature = MLSCrypto.signWithLabel(signatureKey, label: GroupEventPlaintext.signLabel,
                                               content: pt.tbsHash(groupContext: contextBytes))
        return pt
    }

    /// The leave request (SelfRemove) of this member, for an admin to commit.
    public func leaveRequest() -> GroupEventPlaintext {
        sign(contentType: .proposal, body: LegacyProposal.selfRemove(identity: ownIdentity).tlsSerialized)
    }

    /// `nonce(12) || ChaCha20-Poly1305(message_key, nonce, aad = "", plaintext)` — the bytes whose
    /// base64 is a kind-445 content (Marmot MIP-03; PROTOCOL.md §5.4; MDK ≥ 0.7).
    public func encrypt(_ pt: GroupEventPlaintext, rng: RandomSource = SystemRandom()) throws -> [UInt8] {
        let nonce = rng.bytes(12)
        var w = TLSWriter(capacity: pt.body.count + 128)
        pt.encode(to: &w)
        return nonce + (try ChaChaPoly.seal(w.bytes, key: secrets.messageKey, nonce: nonce, aad: [UInt8]()))
    }

    /// Opens content encrypted under this epoch's key; `nil` when the key does not fit.
    public func decrypt(_ sealed: [UInt8]) -> GroupEventPlaintext? {
        guard sealed.count >= 12 + 16 else { return nil }
        let nonce = Array(sealed[0..<12])
        guard let plain = try? ChaChaPoly.open(sealed[12...], key: secrets.messageKey, nonce: nonce, aad: [UInt8]()) else { return nil }
        return try? GroupEventPlaintext(tlsSerialized: plain)
    }
}

extension GroupState {
    /// Decrypts content of this epoch and authenticates its sender (signature by the sender's leaf
    /// key). Throws `undecryptable` when this epoch's key does not open it.
    public func open(_ sealed: [UInt8]) throws -> (sender: GroupMember, plaintext: GroupEventPlaintext) {
        guard let pt = decrypt(sealed) else { throw GroupError(.undecryptable, "this epoch's key does not open the content") }
        return (try authenticate(pt), pt)
    }
}
