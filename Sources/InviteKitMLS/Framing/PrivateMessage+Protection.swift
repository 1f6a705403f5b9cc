import InviteKitCrypto

extension PrivateMessage {
    /// Encrypts signed content from a member (RFC 9420 §6.3): the next key of the sender's
    /// handshake or application ratchet, a random `reuse_guard` XORed into the nonce, and
    /// sender data sealed under keys sampled from the ciphertext.
    ///
    /// This consumes the sender's own generation: its own message echoed back by a relay cannot be
    /// decrypted again from the same tree, so the caller recognises its own messages by other means.
    ///
    /// - Parameter padTo: pads `PrivateMessageContent` with zeros to a multiple of this many bytes
    ///   (0 or 1: no padding), hiding the exact length (RFC 9420 §6.3.1).
    package static func protect(_ authenticated: AuthenticatedContent, secretTree: inout SecretTree, senderDataSecret: SecureBytes,
                               padTo: Int = 0, rng: RandomSource = SystemRandom()) throws -> PrivateMessage {
        guard authenticated.wireFormat == .privateMessage else { throw MLSError(.invalidValue, "content was signed for another wire format") }
        guard case .member(let leaf) = authenticated.content.sender else {
            throw MLSError(.invalidSender, "only members send PrivateMessages")
        }
        guard (0...65_536).contains(padTo) else { throw MLSError(.invalidValue, "padding block \(padTo)") }
        try authenticated.checkAuthShape()
        let suite = secretTree.suite
        let aead = secretTree.aead
        let content = authenticated.content

        var plain = TLSWriter(capacity: 256)
        content.body.encode(to: &plain)
        authenticated.auth.encode(to: &plain, contentType: content.contentType)
        if padTo > 1, plain.bytes.count % padTo != 0 {
            plain.writeBytes([UInt8](repeating: 0, count: padTo - plain.bytes.count % padTo))
        }
        var plaintext = plain.takeBytes()
        defer { zeroize(&plaintext) }

        let key = try secretTree.nextKey(leaf: leaf, type: RatchetType(content.contentType))
        return try seal(plaintext: plaintext, content: content, leaf: leaf, key: key, reuseGuard: rng.bytes(4),
                        senderDataSecret: senderDataSecret, suite: suite, aead: aead)
    }

    /// Encrypts an already-encoded PrivateMessageContent with `key`, and the sender data naming
    /// `leaf` and `key.generation` (RFC 9420 §6.3.1, §6.3.2).
    static func seal(plaintext: [UInt8], content: FramedContent, leaf: UInt32, key: RatchetKey, reuseGuard: [UInt8],
                     senderDataSecret: SecureBytes, suite: CipherSuite, aead: HPKEAEAD) throws -> PrivateMessage {
        var message = PrivateMessage(groupID: content.groupID, epoch: content.epoch, contentType: content.contentType,
                                     authenticatedData: content.authenticatedData, encryptedSenderData: [], ciphertext: [])
        message.ciphertext = try aead.seal(plaintext, key: key.key, nonce: guarded(key.nonce, reuseGuard), aad: message.contentAAD)
        let sender = SenderData(leafIndex: leaf, generation: key.generation, reuseGuard: reuseGuard)
        let sd = try SenderData.keyAndNonce(senderDataSecret: senderDataSecret, ciphertext: message.ciphertext, suite: suite)
        message.encryptedSenderData = try aead.seal(sender.bytes, key: sd.key, nonce: sd.nonce.exportBytes(),
                                                    aad: SenderData.aad(groupID: content.groupID, epoch: content.epoch,
                                                                        contentType: content.contentType))
        return message
    }

    /// Decrypts and parses a PrivateMessage of group `groupID` at `epoch` (RFC 9420 §6.3). The
    /// generation's key is consumed only when decryption and parsing succeed; the signature is
    /// checked separately with ``AuthenticatedContent/verifySignature(publicKey:groupContext:)``.
    package func unprotect(groupID: [UInt8], epoch: UInt64, secretTree: inout SecretTree, senderDataSecret: SecureBytes,
                          parser: FramedContentBodyParser = .standard) throws -> AuthenticatedContent {
        guard self.groupID == groupID else { throw MLSError(.wrongGroup, "PrivateMessage for another group") }
        guard self.epoch == epoch else { throw MLSError(.wrongEpoch, "PrivateMessage for epoch \(self.epoch), expected \(epoch)") }
        let aead = secretTree.aead
        let sd = try SenderData.keyAndNonce(senderDataSecret: senderDataSecret, ciphertext: ciphertext, suite: secretTree.suite)
        let senderBytes = try aead.open(encryptedSenderData, key: sd.key, nonce: sd.nonce.exportBytes(),
                                        aad: SenderData.aad(groupID: groupID, epoch: epoch, contentType: contentType))
        let sender: SenderData
        do { sender = try SenderData(bytes: senderBytes) } catch { throw MLSError(.invalidValue, "malformed sender data") }

        var trial = secretTree
        let key = try trial.key(leaf: sender.leafIndex, type: RatchetType(contentType), generation: sender.generation)
        var plaintext = try aead.open(ciphertext, key: key.key, nonce: Self.guarded(key.nonce, sender.reuseGuard), aad: contentAAD)
        defer { zeroize(&plaintext) }

        var r = TLSReader(plaintext)
        let body = try FramedContent.Body.decode(contentType, from: &r, parser: parser)
        let auth = try FramedContentAuthData(from: &r, contentType: contentType)
        // Padding must be all zeros (RFC 9420 §6.3.1); scanning every byte keeps the time independent
        // of where a non-zero byte sits.
        var nonZero: UInt8 = 0
        while !r.isAtEnd { nonZero |= try r.readUInt8() }
        guard nonZero == 0 else { throw MLSError(.invalidPadding, "non-zero padding") }

        secretTree = trial
        let content = FramedContent(groupID: groupID, epoch: epoch, sender: .member(leafIndex: sender.leafIndex),
                                    authenticatedData: authenticatedData, body: body)
        return AuthenticatedContent(wireFormat: .privateMessage, content: content, auth: auth)
    }

    /// The nonce with its first four bytes XORed with `reuse_guard` (RFC 9420 §6.3.1).
    static func guarded(_ nonce: SecureBytes, _ reuseGuard: [UInt8]) -> [UInt8] {
        var n = nonce.exportBytes()
        for i in 0..<4 { n[i] ^= reuseGuard[i] }
        return n
    }
}
