import InviteKitCrypto
import InviteKitNostr

extension MarmotGroup {
    /// Joins from a gift-wrapped Welcome: unwraps it (NIP-59), reads the kind-444 rumor
    /// (``MarmotWelcomeRumor``) and joins with the stored KeyPackage it names.
    public static func join(giftWrap: NostrEvent, recipient: Secp256k1.PrivateKey, store: KeyPackageStore) throws -> MarmotGroup {
        let gift: UnwrappedGift
        do { gift = try GiftWrap.unwrap(giftWrap, recipient: recipient) } catch { throw MLSError(.invalidWelcome, "gift wrap: \(error)") }
        return try join(gift: gift, recipient: recipient, store: store)
    }

    /// As ``join(giftWrap:recipient:store:)`` for a wrap the caller already opened. The wrap's
    /// verified sender must be an admin of the group (only an admin can have added us). The
    /// KeyPackage is consumed only after everything succeeded; on any failure it stays usable.
    public static func join(gift: UnwrappedGift, recipient: Secp256k1.PrivateKey, store: KeyPackageStore) throws -> MarmotGroup {
        let parsed: MarmotWelcomeRumor.Parsed
        do { parsed = try MarmotWelcomeRumor.parse(gift.rumor) } catch { throw MLSError(.invalidWelcome, "\(error)") }
        guard gift.rumor.pubkey == gift.sender.hex else { throw MLSError(.invalidWelcome, "rumor author is not the wrap's sender") }
        var found: (ref: [UInt8], bundle: KeyPackageBundle)?
        for ref in try Engine.keyPackageReferences(inWelcome: parsed.welcomeMessage) {
            if let b = try store.bundle(reference: ref) { found = (ref, b); break }
        }
        guard let found else { throw MLSError(.notFound, "no stored KeyPackage for this Welcome") }
        guard found.bundle.keyPackage.leafNode.credential.identity == recipient.publicKey.rawRepresentation else {
            throw MLSError(.invalidWelcome, "Welcome is for another identity")
        }
        let state = try Engine.join(welcomeMessage: parsed.welcomeMessage, bundle: found.bundle)
        let data = try MarmotGroupData(extensions: state.groupContextExtensions)
        guard data.isAdmin(gift.sender.rawRepresentation) else { throw MLSError(.invalidWelcome, "Welcome was not sent by an admin of the group") }
        try store.consume(reference: found.ref)
        return MarmotGroup(state: state, groupData: data)
    }
}
