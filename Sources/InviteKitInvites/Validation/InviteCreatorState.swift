import InviteKitCrypto

/// What only the creator has: the secret key that opens the conversation token, and the
/// current state of its conversations.
public struct InviteCreatorState: Sendable {
    /// The creator's secret key. An invite made by any other key fails with
    /// `creator_mismatch`.
    public var key: Secp256k1.PrivateKey
    /// The conversation's current invite tag, or `nil` when no such conversation exists
    /// (`conversation_not_found`).
    public var currentTag: @Sendable (_ conversationID: String) -> String?

    /// State for `key` with a tag lookup.
    public init(key: Secp256k1.PrivateKey, currentTag: @escaping @Sendable (_ conversationID: String) -> String?) {
        self.key = key
        self.currentTag = currentTag
    }
}
