import InviteKitNostr

/// A join request (kind 1080 rumor) in Whistle's JSON form
/// `{"type":"join-request","v":1,"groupId","pubkey","keyPackage":<kind-30443 event>,"name"?}`.
/// InviteKit adds `"invite"`: the invite URL or code the request answers, so the inviter can
/// check its signature, expiry, tag and single use. Whistle's decoder ignores the extra key.
public struct WhistleJoinRequest: Sendable, Hashable {
    public var groupId: String
    /// The joiner's Nostr key (hex). Must equal the gift wrap's sender.
    public var pubkey: String
    public var keyPackage: NostrEvent
    public var name: String?
    public var invite: String?

    public init(groupId: String, pubkey: String, keyPackage: NostrEvent, name: String? = nil, invite: String? = nil) {
        self.groupId = groupId; self.pubkey = pubkey; self.keyPackage = keyPackage; self.name = name; self.invite = invite
    }

    public static let maxJSONBytes = 256 * 1024

    public var json: [UInt8] {
        var members = [JSONMember("type", .string("join-request")), JSONMember("v", .number("1")),
                       JSONMember("groupId", .string(groupId)), JSONMember("pubkey", .string(pubkey)),
                       JSONMember("keyPackage", (try? JSONParser.parse(keyPackage.jsonBytes)) ?? .null)]
        if let name { members.append(JSONMember("name", .string(name))) }
        if let invite { members.append(JSONMember("invite", .string(invite))) }
        var w = JSONWriter(); w.value(.object(members)); return w.bytes
    }

    /// Parses a join request's JSON (PROTOCOL §7). Throws `InviteKitError` (its
    /// `underlyingCode` is the ``SealedMessageError`` code).
    public init(json bytes: [UInt8]) throws(InviteKitError) {
        do { try self.init(layerJSON: bytes) } catch { throw InviteKitError.from(error) }
    }

    /// ``init(json:)`` with the layer's own error.
    package init(layerJSON bytes: [UInt8]) throws(SealedMessageError) {
        guard let v = try? JSONParser.parse(bytes, maxBytes: Self.maxJSONBytes, maxDepth: 8), case .object = v else {
            throw SealedMessageError(.malformed, "join request is not a JSON object")
        }
        guard v["type"]?.stringValue == "join-request", v["v"]?.int64Value == 1 else {
            throw SealedMessageError(.unsupportedVersion, "expected type join-request, v 1")
        }
        guard let groupId = v["groupId"]?.stringValue, let pubkey = v["pubkey"]?.stringValue, let kp = v["keyPackage"] else {
            throw SealedMessageError(.malformed, "groupId, pubkey and keyPackage are required")
        }
        let keyPackage: NostrEvent
        do { keyPackage = try NostrEvent(jsonValue: kp) } catch { throw SealedMessageError(.malformed, "keyPackage: \(error.detail)") }
        func optionalString(_ key: String) throws(SealedMessageError) -> String? {
            guard let x = v[key], x != .null else { return nil }
            guard let s = x.stringValue else { throw SealedMessageError(.malformed, "\(key) must be a string") }
            return s
        }
        self.init(groupId: groupId, pubkey: pubkey, keyPackage: keyPackage, name: try optionalString("name"), invite: try optionalString("invite"))
    }
}
