/// The Nostr `transport_offer` of a request (`shared/marmot/v2/transports/nostr-invite-links.md`
/// "Request delivery and package evidence"; PROTOCOL §5.14.7):
///
///     struct {
///       opaque key_package_event_id[32];     // one exact signed kind 30443 publication
///       RelayURL welcome_hints<0..4096>;      // 0–8 sorted unique wss:// URLs
///     } NostrInviteOfferV1;
public struct NostrInviteOfferV1: Hashable, Sendable {
    public let keyPackageEventID: [UInt8]
    public let welcomeHints: [String]

    /// Checks the id and the hint list (`invalid_invite_record`).
    public init(keyPackageEventID: [UInt8], welcomeHints: [String]) throws {
        try InviteLinkCodec.require(keyPackageEventID, count: 32, .invalidInviteRecord, "key_package_event_id")
        try InviteRelayURLList.validate(welcomeHints, count: 0...InviteRelayURLList.maxURLs, .invalidInviteRecord, "welcome_hints")
        self.keyPackageEventID = keyPackageEventID
        self.welcomeHints = welcomeHints
    }

    public var encoded: [UInt8] {
        InviteLinkCodec.encode { w in w.writeBytes(keyPackageEventID); InviteRelayURLList.write(welcomeHints, to: &w) }
    }

    /// Reads exactly (`invalid_invite_record`).
    public init(decoding bytes: [UInt8]) throws {
        self = try InviteLinkCodec.decode(bytes, .invalidInviteRecord, "nostr offer") { r in
            let id = try InviteLinkCodec.read32(&r)
            let hints = try InviteRelayURLList.read(&r, count: 0...InviteRelayURLList.maxURLs, .invalidInviteRecord, "welcome_hints")
            return try Self(keyPackageEventID: id, welcomeHints: hints)
        }
    }
}
