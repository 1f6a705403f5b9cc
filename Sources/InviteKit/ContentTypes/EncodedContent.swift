import InviteKitInvites

/// XMTP's `EncodedContent` message, byte-compatible with its protobuf:
/// 1 type (ContentTypeId: 1 authority_id, 2 type_id, 3 version_major, 4 version_minor),
/// 2 parameters map<string,string>, 3 optional fallback, 4 content bytes, 5 optional compression.
public struct EncodedContent: Sendable, Hashable {
    public enum Compression: UInt64, Sendable { case deflate = 0, gzip = 1 }

    public var type: ContentTypeID
    public var parameters: [String: String]
    public var fallback: String?
    public var content: [UInt8]
    public var compression: Compression?

    public init(type: ContentTypeID, parameters: [String: String] = [:], fallback: String? = nil, content: [UInt8], compression: Compression? = nil) {
        self.type = type; self.parameters = parameters; self.fallback = fallback
        self.content = content; self.compression = compression
    }

    /// Largest serialized EncodedContent read.
    public static let maxSerializedBytes = 1 << 20
}
