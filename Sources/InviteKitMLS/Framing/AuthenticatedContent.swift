/// `AuthenticatedContent` (RFC 9420 §6.1): framed content with its signature (and, for commits,
/// confirmation tag), as both message forms authenticate it.
package struct AuthenticatedContent: Hashable, Sendable, TLSCodable {
    package var wireFormat: WireFormat
    package var content: FramedContent
    package var auth: FramedContentAuthData

    package init(wireFormat: WireFormat, content: FramedContent, auth: FramedContentAuthData) {
        self.wireFormat = wireFormat
        self.content = content
        self.auth = auth
    }

    /// Parses with ``FramedContentBodyParser/standard``.
    package init(from reader: inout TLSReader) throws { try self.init(from: &reader, parser: .standard) }

    package init(from reader: inout TLSReader, parser: FramedContentBodyParser) throws {
        wireFormat = try WireFormat(from: &reader)
        content = try FramedContent(from: &reader, parser: parser)
        auth = try FramedContentAuthData(from: &reader, contentType: content.contentType)
    }

    package func encode(to writer: inout TLSWriter) {
        wireFormat.encode(to: &writer)
        content.encode(to: &writer)
        auth.encode(to: &writer, contentType: content.contentType)
    }

    /// A commit must carry a confirmation tag and nothing else may (RFC 9420 §6.1).
    func checkAuthShape() throws {
        guard (content.contentType == .commit) == (auth.confirmationTag != nil) else {
            throw MLSError(.invalidValue, content.contentType == .commit ? "commit without confirmation tag" : "confirmation tag on a non-commit")
        }
    }
}
