import InviteKitCrypto

/// `PublicMessage` (RFC 9420 §6.2): signed, unencrypted framing for proposals and commits.
package struct PublicMessage: Hashable, Sendable, TLSCodable {
    package var content: FramedContent
    package var auth: FramedContentAuthData
    /// `MAC membership_tag`, present exactly when the sender is a member.
    package var membershipTag: [UInt8]?

    package init(content: FramedContent, auth: FramedContentAuthData, membershipTag: [UInt8]?) {
        self.content = content
        self.auth = auth
        self.membershipTag = membershipTag
    }

    /// Parses with ``FramedContentBodyParser/standard``.
    package init(from reader: inout TLSReader) throws { try self.init(from: &reader, parser: .standard) }

    package init(from reader: inout TLSReader, parser: FramedContentBodyParser) throws {
        content = try FramedContent(from: &reader, parser: parser)
        auth = try FramedContentAuthData(from: &reader, contentType: content.contentType)
        if case .member = content.sender { membershipTag = try reader.readOpaque() } else { membershipTag = nil }
    }

    package func encode(to writer: inout TLSWriter) {
        content.encode(to: &writer)
        auth.encode(to: &writer, contentType: content.contentType)
        if let tag = membershipTag { writer.writeOpaque(tag) }
    }

    /// The content as authenticated by this message's signature.
    package var authenticatedContent: AuthenticatedContent {
        AuthenticatedContent(wireFormat: .publicMessage, content: content, auth: auth)
    }

    /// Wraps signed content as a PublicMessage, adding the membership tag for member senders
    /// (RFC 9420 §6.2). Application data may not be sent this way.
    package static func protect(_ authenticated: AuthenticatedContent, membershipKey: SecureBytes?,
                               groupContext: [UInt8]) throws -> PublicMessage {
        guard authenticated.wireFormat == .publicMessage else { throw MLSError(.invalidValue, "content was signed for another wire format") }
        guard authenticated.content.contentType != .application else {
            throw MLSError(.invalidValue, "application data is never sent as a PublicMessage")
        }
        try authenticated.checkAuthShape()
        var tag: [UInt8]?
        if case .member = authenticated.content.sender {
            guard let key = membershipKey else { throw MLSError(.invalidValue, "a member sender needs the membership key") }
            tag = authenticated.membershipTag(membershipKey: key, groupContext: groupContext)
        }
        return PublicMessage(content: authenticated.content, auth: authenticated.auth, membershipTag: tag)
    }

    /// Checks group, epoch and (for member senders) the membership tag in constant time, and
    /// returns the authenticated content (RFC 9420 §6.2). The signature is checked separately with
    /// ``AuthenticatedContent/verifySignature(publicKey:groupContext:)`` once the caller knows the
    /// sender's key.
    package func unprotect(groupID: [UInt8], epoch: UInt64, membershipKey: SecureBytes?,
                          groupContext: [UInt8]) throws -> AuthenticatedContent {
        guard content.groupID == groupID else { throw MLSError(.wrongGroup, "PublicMessage for another group") }
        guard content.epoch == epoch else { throw MLSError(.wrongEpoch, "PublicMessage for epoch \(content.epoch), expected \(epoch)") }
        guard content.contentType != .application else { throw MLSError(.invalidValue, "application data in a PublicMessage") }
        let authenticated = authenticatedContent
        try authenticated.checkAuthShape()
        if case .member = content.sender {
            guard let key = membershipKey, let tag = membershipTag else { throw MLSError(.invalidMembershipTag, "membership tag missing") }
            guard ConstantTime.equals(authenticated.membershipTag(membershipKey: key, groupContext: groupContext), tag) else {
                throw MLSError(.invalidMembershipTag, "membership tag does not match")
            }
        }
        return authenticated
    }
}
