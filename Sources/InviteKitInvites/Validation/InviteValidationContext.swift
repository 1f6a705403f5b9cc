import InviteKitCrypto

/// What the validator knows besides the invite.
public struct InviteValidationContext: Sendable {
    /// Current time, Unix seconds.
    public var now: Int64
    /// Require this creator (`--creator`).
    public var expectedCreator: Secp256k1.XOnlyPublicKey?
    /// The group's current tag (creator side). An invite with another tag was revoked.
    public var currentTag: String?
    /// Single-use bookkeeping (creator side), only read: validation never consumes an invite
    /// (the join flow consumes once every other check passed). Without a store the single-use
    /// check is skipped.
    public var store: (any ConsumedTagStore)?
    /// Creator side: opens the conversation token and looks the conversation up, which enables
    /// the `conversation` check and takes the current tag from the lookup (overriding
    /// ``currentTag``).
    public var creator: InviteCreatorState?

    /// A context; without a tag or store, revocation and single use are skipped.
    public init(
        now: Int64, expectedCreator: Secp256k1.XOnlyPublicKey? = nil, currentTag: String? = nil,
        store: (any ConsumedTagStore)? = nil, creator: InviteCreatorState? = nil
    ) {
        self.creator = creator
        self.now = now
        self.expectedCreator = expectedCreator
        self.currentTag = currentTag
        self.store = store
    }
}
