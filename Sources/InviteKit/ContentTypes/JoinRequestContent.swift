import InviteKitNostr

/// `convos.org/join_request:1.0`: `{"inviteSlug", "profile"?, "metadata"?}`.
public struct JoinRequestContent: Sendable, Hashable {
    public var inviteSlug: String
    /// Free-form profile object (e.g. `{"name": …}`), kept as JSON.
    public var profile: JSONValue?
    public var metadata: [String: String]?

    public init(inviteSlug: String, profile: JSONValue? = nil, metadata: [String: String]? = nil) {
        self.inviteSlug = inviteSlug; self.profile = profile; self.metadata = metadata
    }
}

public struct JoinRequestCodec: ContentCodec {
    public init() {}
    public var contentType: ContentTypeID { .joinRequest }

    public func encode(_ content: JoinRequestContent) throws -> EncodedContent {
        var members = [JSONMember("inviteSlug", .string(content.inviteSlug))]
        if let p = content.profile { members.append(JSONMember("profile", p)) }
        if let m = content.metadata {
            members.append(JSONMember("metadata", .object(m.keys.sorted().map { JSONMember($0, .string(m[$0]!)) })))
        }
        var w = JSONWriter(); w.value(.object(members))
        return EncodedContent(type: contentType, fallback: fallback(content), content: w.bytes)
    }

    public func decode(_ encoded: EncodedContent) throws -> JoinRequestContent {
        try requireReadable(encoded)
        guard !encoded.content.isEmpty else { throw ContentTypeError(.emptyContent) }
        guard let v = try? JSONParser.parse(encoded.content, maxBytes: 64 * 1024, maxDepth: 8), case .object = v,
              let slug = v["inviteSlug"]?.stringValue else {
            throw ContentTypeError(.invalidJSONFormat, "expected {\"inviteSlug\": string, …}")
        }
        var metadata: [String: String]?
        if let m = v["metadata"], m != .null {
            guard let members = m.objectValue, members.allSatisfy({ $0.value.stringValue != nil }) else {
                throw ContentTypeError(.invalidJSONFormat, "metadata must map strings to strings")
            }
            metadata = Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value.stringValue!) })
        }
        let profile = v["profile"].flatMap { $0 == .null ? nil : $0 }
        if let profile, profile.objectValue == nil { throw ContentTypeError(.invalidJSONFormat, "profile must be an object") }
        return JoinRequestContent(inviteSlug: slug, profile: profile, metadata: metadata)
    }

    public func fallback(_ content: JoinRequestContent) -> String? { "Requested to join via an invite" }
    public func shouldPush(_ content: JoinRequestContent) -> Bool { true }
}
