import InviteKitCrypto

extension InvitePreviewV1 {
    /// The most bytes the descriptor content decodes to, `nonce || ciphertext`
    /// (`nostr-invite-links.md` "Preview descriptor"; PROTOCOL §5.14.4).
    public static let maxDescriptorBytes = 54000

    /// The AEAD's associated data, `uint16(1) || inbox_pubkey[32] || link_id[32]` (66 bytes).
    public static func associatedData(inboxPublicKey: [UInt8], linkID: [UInt8]) -> [UInt8] {
        InviteLinkCodec.encode { w in w.writeUInt16(1); w.writeBytes(inboxPublicKey); w.writeBytes(linkID) }
    }

    /// ChaCha20-Poly1305 of ``encoded`` under the 32-byte `previewKey` with a fresh 12-byte nonce
    /// from `random`: returns `(nonce, ciphertext || tag)`. Refuses a plaintext whose descriptor
    /// would exceed 54000 bytes (`invalid_invite_preview`).
    public func seal(previewKey: SecureBytes, random: RandomSource = SystemRandom()) throws -> (nonce: [UInt8], ciphertext: [UInt8]) {
        let plaintext = encoded
        guard ChaChaPoly.nonceByteCount + plaintext.count + ChaChaPoly.tagByteCount <= Self.maxDescriptorBytes else {
            throw MLSError(.invalidInvitePreview, "the encrypted preview would exceed \(Self.maxDescriptorBytes) bytes")
        }
        guard previewKey.count == ChaChaPoly.keyByteCount else { throw MLSError(.invalidInvitePreview, "preview_key must be 32 bytes") }
        let nonce = random.bytes(ChaChaPoly.nonceByteCount)
        let aad = Self.associatedData(inboxPublicKey: inboxPublicKey, linkID: linkID)
        let sealed = try InviteLinkCodec.rethrowing(.invalidInvitePreview, "preview") {
            try previewKey.withUnsafeBytes { try ChaChaPoly.seal(plaintext, key: $0, nonce: nonce, aad: aad) }
        }
        return (nonce, sealed)
    }

    /// The descriptor `content`: standard padded base64 of `nonce || ciphertext`.
    public func descriptorContent(previewKey: SecureBytes, random: RandomSource = SystemRandom()) throws -> String {
        let (nonce, ciphertext) = try seal(previewKey: previewKey, random: random)
        return InviteLinkCodec.base64(nonce + ciphertext)
    }

    /// Opens `ciphertext` (with its tag) under the code's preview key and AAD, then reads the
    /// plaintext exactly: a wrong key, AAD, nonce or changed byte is `decryption_failed`; a
    /// plaintext naming another inbox, id or bearer than `code` is `invalid_invite_preview`.
    public static func open(nonce: [UInt8], ciphertext: [UInt8], code: InviteCodeV1) throws -> InvitePreviewV1 {
        guard nonce.count == ChaChaPoly.nonceByteCount else { throw MLSError(.invalidInvitePreview, "nonce must be 12 bytes") }
        guard nonce.count + ciphertext.count <= maxDescriptorBytes else {
            throw MLSError(.invalidInvitePreview, "descriptor is above \(maxDescriptorBytes) bytes")
        }
        let aad = associatedData(inboxPublicKey: code.inboxPublicKey, linkID: code.linkID)
        let plaintext: [UInt8]
        do {
            plaintext = try code.previewKey.withUnsafeBytes { try ChaChaPoly.open(ciphertext, key: $0, nonce: nonce, aad: aad) }
        } catch {
            throw MLSError(.decryptionFailed, "invite preview does not open under this code's key and AAD")
        }
        let preview = try InvitePreviewV1(decoding: plaintext)
        guard preview.matches(code) else { throw MLSError(.invalidInvitePreview, "preview names another inbox, link id or bearer than the code") }
        return preview
    }

    /// Opens descriptor `content` (canonical padded base64 of `nonce || ciphertext`, at most 54000
    /// decoded bytes, the encoded length bounded before decoding).
    public static func open(descriptorContent content: String, code: InviteCodeV1) throws -> InvitePreviewV1 {
        let bytes = try InviteLinkCodec.fromBase64(content, maxDecoded: maxDescriptorBytes, .invalidInvitePreview, "descriptor content")
        guard bytes.count >= ChaChaPoly.nonceByteCount + ChaChaPoly.tagByteCount else {
            throw MLSError(.invalidInvitePreview, "descriptor content is shorter than a nonce and a tag")
        }
        return try open(nonce: Array(bytes.prefix(ChaChaPoly.nonceByteCount)), ciphertext: Array(bytes.dropFirst(ChaChaPoly.nonceByteCount)), code: code)
    }
}
