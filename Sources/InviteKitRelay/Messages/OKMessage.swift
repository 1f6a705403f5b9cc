/// A relay's answer to `EVENT` or `AUTH`: `["OK", <event id>, <true|false>, <message>]`
/// ([NIP-01](https://github.com/nostr-protocol/nips/blob/master/01.md)).
public struct OKMessage: Sendable, Hashable {
    /// The event id the relay names. Some relays (nostr-relay 1.14) send `""` on rejection.
    public let eventId: String
    public let accepted: Bool
    public let message: String

    public init(eventId: String, accepted: Bool, message: String) {
        self.eventId = eventId
        self.accepted = accepted
        self.message = message
    }

    public var prefix: MachineReadablePrefix? { MachineReadablePrefix(message: message) }

    /// True when the relay holds the event: `OK true`, or `OK false "duplicate: ..."` (NIP-01 asks for
    /// `true` on duplicates; nostr-relay answers `false`, yet the event is stored).
    public var isStored: Bool { accepted || prefix == .duplicate }
}
