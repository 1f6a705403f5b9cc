/// `FramedContentAuthData` (RFC 9420 §6.1): the signature, and for commits the confirmation tag.
package struct FramedContentAuthData: Hashable, Sendable {
    package var signature: [UInt8]
    /// `MAC confirmation_tag`, present exactly when the content is a commit.
    package var confirmationTag: [UInt8]?

    package init(signature: [UInt8], confirmationTag: [UInt8]? = nil) {
        self.signature = signature
        self.confirmationTag = confirmationTag
    }

    init(from reader: inout TLSReader, contentType: ContentType) throws {
        signature = try reader.readOpaque()
        confirmationTag = contentType == .commit ? try reader.readOpaque() : nil
    }

    /// Writes the auth data for `contentType`; a commit without a tag is a programming error caught
    /// earlier by ``AuthenticatedContent``'s checks, so an empty tag is written rather than trapping.
    func encode(to writer: inout TLSWriter, contentType: ContentType) {
        writer.writeOpaque(signature)
        if contentType == .commit { writer.writeOpaque(confirmationTag ?? []) }
    }
}
