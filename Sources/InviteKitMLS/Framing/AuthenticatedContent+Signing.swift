import InviteKitCrypto

extension AuthenticatedContent {
    /// `FramedContentTBS` (RFC 9420 §6.1): version, wire format, content, and the serialized
    /// GroupContext when the sender is a member or a new member committing.
    static func tbs(wireFormat: WireFormat, content: FramedContent, groupContext: [UInt8]) -> [UInt8] {
        var w = TLSWriter(capacity: 256 + groupContext.count)
        ProtocolVersion.mls10.encode(to: &w)
        wireFormat.encode(to: &w)
        content.encode(to: &w)
        switch content.sender {
        case .member, .newMemberCommit: w.writeBytes(groupContext)
        case .external, .newMemberProposal: break
        }
        return w.bytes
    }

    /// Signs `content` for sending as `wireFormat`: `SignWithLabel(., "FramedContentTBS", FramedContentTBS)`
    /// (RFC 9420 §6.1). For a commit, set ``FramedContentAuthData/confirmationTag`` afterwards:
    /// it depends on the confirmed transcript hash, which covers this signature (RFC 9420 §8.2).
    package static func sign(wireFormat: WireFormat, content: FramedContent, signer: Ed25519.PrivateKey,
                            groupContext: [UInt8]) -> AuthenticatedContent {
        let signature = MLSCrypto.signWithLabel(signer, label: "FramedContentTBS",
                                                content: tbs(wireFormat: wireFormat, content: content, groupContext: groupContext))
        return AuthenticatedContent(wireFormat: wireFormat, content: content, auth: FramedContentAuthData(signature: signature))
    }

    /// Verifies the signature with the sender's signature key (RFC 9420 §6.1).
    package func verifySignature(publicKey: [UInt8], groupContext: [UInt8]) throws {
        let tbs = Self.tbs(wireFormat: wireFormat, content: content, groupContext: groupContext)
        guard MLSCrypto.verifyWithLabel(publicKey: publicKey, label: "FramedContentTBS", content: tbs, signature: auth.signature) else {
            throw MLSError(.invalidSignature, "FramedContentTBS signature")
        }
    }

    /// `membership_tag = MAC(membership_key, AuthenticatedContentTBM)` where
    /// `AuthenticatedContentTBM = { FramedContentTBS content_tbs; FramedContentAuthData auth; }` (RFC 9420 §6.2).
    func membershipTag(membershipKey: SecureBytes, groupContext: [UInt8]) -> [UInt8] {
        var w = TLSWriter(capacity: 512)
        w.writeBytes(Self.tbs(wireFormat: wireFormat, content: content, groupContext: groupContext))
        auth.encode(to: &w, contentType: content.contentType)
        return HMACSHA256.authenticate(w.bytes, key: membershipKey)
    }
}
