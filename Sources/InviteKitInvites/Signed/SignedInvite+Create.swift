import InviteKitCrypto

extension SignedInvite {
    /// Builds and signs an invite to `conversationID`: seals the conversation token, sets
    /// creator_inbox_id to the creator's x-only key, signs.
    ///
    /// `conversationID` is whatever the creator looks conversations up by when a join request
    /// comes back; only the creator can read it. With InviteKit's join flow, prefer
    /// `JoinRequestProcessor.invite(for:options:using:)`, which fills in the hosted group's id
    /// and current tag (an invite with any other tag reads as revoked, PROTOCOL.md §8.3).
    public static func create(
        conversationID: String, creator: Secp256k1.PrivateKey, options: InviteOptions = InviteOptions(),
        using rng: RandomSource = SystemRandom()
    ) throws(InviteError) -> SignedInvite {
        let creatorId = ConversationToken.creatorId(for: creator.publicKey)
        let token = try ConversationToken.seal(conversationID: conversationID, creatorKey: creator, creatorId: creatorId, using: rng)
        return try create(token: token, creator: creator, options: options, using: rng)
    }

    /// As ``create(conversationID:creator:options:using:)`` with an already sealed token
    /// (vectors use a fixed nonce through ``ConversationToken/seal(conversationID:creatorKey:creatorId:nonce:)``).
    public static func create(
        token: [UInt8], creator: Secp256k1.PrivateKey, options: InviteOptions,
        using rng: RandomSource = SystemRandom()
    ) throws(InviteError) -> SignedInvite {
        let tag = options.tag ?? InviteTag.generate(using: rng)
        guard InviteTag.isValid(tag) else { throw InviteError(.invalidArgument, "the tag must be \(InviteTag.rule)") }
        for relay in options.relays where !RelayURLCheck.isValid(relay) {
            throw InviteError(.invalidRelay, "relays must be ws:// or wss:// URLs")
        }
        guard options.relays.count <= InvitePayload.maxRelays else {
            throw InviteError(.invalidRelay, "\(options.relays.count) relays; readers accept at most \(InvitePayload.maxRelays) (InvitePayload.maxRelays)")
        }
        let payload = InvitePayload(
            conversationToken: token, creatorInboxId: creator.publicKey.rawRepresentation, tag: tag,
            name: options.name, description: options.description, imageURL: options.imageURL,
            conversationExpiresAtUnix: options.conversationExpiresAtUnix, expiresAtUnix: options.expiresAtUnix,
            expiresAfterUse: options.singleUse, emoji: options.emoji, relays: options.relays,
            mipProfile: options.mipProfile)
        let invite = try sign(payload, with: creator)
        try invite.checkReadable()
        return invite
    }

    /// Refuses an invite that ``init(slug:)`` would refuse (PROTOCOL §3.1: every invite
    /// InviteKit builds parses back), naming the reader's limit: the slug's length
    /// (``InviteSlug/maxLength``) or the serialized size (``InviteCompression/maxInflatedSize``).
    func checkReadable() throws(InviteError) {
        let wire = serializedBytes().count
        guard wire <= InviteCompression.maxInflatedSize else {
            throw InviteError(.inputTooLarge, "the invite is \(wire) bytes serialized; readers accept at most \(InviteCompression.maxInflatedSize) (InviteCompression.maxInflatedSize)")
        }
        let slug = encodedSlug()
        guard slug.utf8.count <= InviteSlug.maxLength else {
            throw InviteError(.inputTooLarge, "the invite encodes to \(slug.utf8.count) characters; readers accept at most \(InviteSlug.maxLength) (InviteSlug.maxLength)")
        }
        do { _ = try SignedInvite(slug: slug) } catch {
            throw InviteError(.inputTooLarge, "the invite would not parse back (\(error.code.rawValue)); readers accept \(InviteSlug.maxLength) characters, \(InviteCompression.maxInflatedSize) bytes inflated")
        }
    }

    /// Opens the conversation token: only the creator can.
    public func conversationID(creatorKey: Secp256k1.PrivateKey) throws(InviteError) -> String {
        try ConversationToken.open(payload.conversationToken, creatorKey: creatorKey,
                                   creatorId: ConversationToken.creatorId(for: creatorKey.publicKey))
    }
}
