/// A content type identifier, rendered `authority/type:major.minor`
/// (e.g. `convos.org/invite_join_error:1.0`), as XMTP names content types.
public struct ContentTypeID: Sendable, Hashable, CustomStringConvertible {
    public var authorityID: String
    public var typeID: String
    public var versionMajor: UInt32
    public var versionMinor: UInt32

    public init(authorityID: String, typeID: String, versionMajor: UInt32, versionMinor: UInt32) {
        self.authorityID = authorityID; self.typeID = typeID
        self.versionMajor = versionMajor; self.versionMinor = versionMinor
    }

    public var description: String { "\(authorityID)/\(typeID):\(versionMajor).\(versionMinor)" }

    /// Parses `authority/type:major.minor`. The authority and type must be non-empty and free of
    /// `/` and `:`; the versions are decimal `UInt32`s.
    public init(parsing text: String) throws(ContentTypeError) {
        let slash = text.split(separator: "/", omittingEmptySubsequences: false)
        guard slash.count == 2 else { throw ContentTypeError(.invalidContentTypeID, "expected authority/type:major.minor") }
        let colon = slash[1].split(separator: ":", omittingEmptySubsequences: false)
        guard colon.count == 2 else { throw ContentTypeError(.invalidContentTypeID, "expected authority/type:major.minor") }
        let dot = colon[1].split(separator: ".", omittingEmptySubsequences: false)
        guard dot.count == 2, let major = UInt32(dot[0]), let minor = UInt32(dot[1]),
              dot[0].allSatisfy(\.isASCII), dot[1].allSatisfy(\.isASCII) else {
            throw ContentTypeError(.invalidContentTypeID, "version must be major.minor")
        }
        guard !slash[0].isEmpty, !colon[0].isEmpty else { throw ContentTypeError(.invalidContentTypeID, "empty authority or type") }
        self.init(authorityID: String(slash[0]), typeID: String(colon[0]), versionMajor: major, versionMinor: minor)
    }

    /// Same authority, type and major version: what a codec can read.
    public func isCompatible(with other: ContentTypeID) -> Bool {
        authorityID == other.authorityID && typeID == other.typeID && versionMajor == other.versionMajor
    }
}

extension ContentTypeID {
    public static let inviteJoinError = ContentTypeID(authorityID: "convos.org", typeID: "invite_join_error", versionMajor: 1, versionMinor: 0)
    /// Convos' join-request content type. Only its id is known here: InviteKit's join request is
    /// the kind-1080 rumor ``WhistleJoinRequest`` (PROTOCOL.md §7), and no codec is registered.
    public static let joinRequest = ContentTypeID(authorityID: "convos.org", typeID: "join_request", versionMajor: 1, versionMinor: 0)
}
