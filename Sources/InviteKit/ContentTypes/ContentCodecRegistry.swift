/// Codecs by content type (authority, type and major version).
public struct ContentCodecRegistry: Sendable {
    private var decoders: [String: @Sendable (EncodedContent) throws -> any Sendable] = [:]
    private var fallbacks: [String: @Sendable (any Sendable) -> String?] = [:]

    public init() {}

    /// A registry with InviteKit's codecs. A join request is not content: it is the kind-1080
    /// rumor ``WhistleJoinRequest`` (PROTOCOL.md §7).
    public static let standard: ContentCodecRegistry = {
        var r = ContentCodecRegistry()
        r.register(InviteJoinErrorCodec())
        return r
    }()

    private static func key(_ id: ContentTypeID) -> String { "\(id.authorityID)/\(id.typeID):\(id.versionMajor)" }

    public mutating func register<C: ContentCodec>(_ codec: C) {
        decoders[Self.key(codec.contentType)] = { try codec.decode($0) }
        fallbacks[Self.key(codec.contentType)] = { ($0 as? C.Content).flatMap(codec.fallback) }
    }

    public func isRegistered(_ id: ContentTypeID) -> Bool { decoders[Self.key(id)] != nil }

    /// Decodes with the registered codec; unknown types fail with `content_unknown_type`.
    public func decode(_ encoded: EncodedContent) throws -> any Sendable {
        guard let decode = decoders[Self.key(encoded.type)] else {
            throw ContentTypeError(.unknownContentType, encoded.type.description)
        }
        return try decode(encoded)
    }
}
