/// Encodes one kind of content to and from ``EncodedContent``.
public protocol ContentCodec<Content>: Sendable {
    associatedtype Content: Sendable
    var contentType: ContentTypeID { get }
    func encode(_ content: Content) throws -> EncodedContent
    func decode(_ encoded: EncodedContent) throws -> Content
    /// Text shown by clients that do not know this content type.
    func fallback(_ content: Content) -> String?
    /// Whether a push notification should be sent for it.
    func shouldPush(_ content: Content) -> Bool
}

extension ContentCodec {
    /// Checks the type and compression before a codec reads the bytes.
    func requireReadable(_ encoded: EncodedContent) throws(ContentTypeError) {
        guard encoded.type.isCompatible(with: contentType) else {
            throw ContentTypeError(.wrongContentType, "expected \(contentType), got \(encoded.type)")
        }
        // InviteKit never compresses these small JSON payloads; refusing compressed input keeps
        // a decompression bomb out of the codec path entirely.
        if let c = encoded.compression { throw ContentTypeError(.unsupportedCompression, "compression \(c) is not supported") }
    }
}
