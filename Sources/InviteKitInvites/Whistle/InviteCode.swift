/// A Whistle invite code (PROTOCOL.md §3.1): `{relay, inviterNpub, groupId}`, as standard padded
/// base64 of a JSON object.
///
/// Encoding is canonical (see ``canonicalJSON``) so the same invite always gives the same code;
/// decoding (``init(code:)``) is tolerant of what people and other encoders produce.
public struct InviteCode: Hashable, Sendable {
    /// Relay where the inviter listens (a `wss://` URL).
    public let relay: String
    /// The inviter's NIP-19 `npub`.
    public let inviterNpub: String
    /// The group id, as Whistle writes it.
    public let groupId: String

    /// Longest code accepted by ``init(code:)`` and ``init(url:)``, in UTF-8 bytes of input.
    /// A relay URL, an npub (63) and a 64-hex group id encode to about 300 characters; 4096
    /// leaves room for long relay URLs and extra keys while bounding the work a stranger's
    /// input can cause.
    public static let maxInputLength = 4096
    /// Deepest JSON nesting accepted (an object inside an object … counts each level).
    public static let maxJSONDepth = 32

    /// A code from its three fields, taken as given (see ``init(code:)`` for validation).
    public init(relay: String, inviterNpub: String, groupId: String) {
        self.relay = relay
        self.inviterNpub = inviterNpub
        self.groupId = groupId
    }
}
