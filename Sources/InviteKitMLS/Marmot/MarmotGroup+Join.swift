import InviteKitCrypto
import InviteKitNostr

extension MarmotGroup {
    /// The one rule for who may welcome: the gift wrap's verified sender must be an admin, and in
    /// the current profile so must the GroupInfo's signer (MDK v0.9.14 `group_lifecycle.rs:1090`).
    static func checkWelcomeSender(_ sender: [UInt8], state: Engine, data: MarmotGroupData) throws {
        guard data.isAdmin(sender) else { throw MLSError(.invalidWelcome, "Welcome was not sent by an admin of the group") }
        if data.profile == .current, let signer = state.welcomeSignerIdentity, !data.isAdmin(signer) {
            throw MLSError(.invalidWelcome, "the Welcome's GroupInfo was not signed by an admin of the group")
        }
    }

    /// The KeyPackageRefs a Welcome rumor's Welcome has secrets for (RFC 9420 §12.4.3.1), read
    /// without decrypting anything: which of a member's KeyPackages it answers.
    public static func keyPackageReferences(ofWelcomeRumor rumor: NostrEvent) throws -> [[UInt8]] {
        try Engine.keyPackageReferences(inWelcome: MarmotWelcomeRumor.parse(rumor).welcomeMessage)
    }

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
        try checkWelcomeSender(gift.sender.rawRepresentation, state: state, data: data)
        try store.consume(reference: found.ref)
        return MarmotGroup(state: state, groupData: data)
    }
}

extension MarmotGroup where Engine == MLSGroupState {
    /// The first step of a join that may need the ratchet tree's chunk events (PROTOCOL §5.11):
    /// reads the rumor, finds the stored KeyPackage and opens the Welcome. When
    /// ``MarmotWelcomeJoin/treeChunks`` is set, fetch those events (from the Welcome's relays,
    /// then one's own) and pass them to ``join(_:treeChunkEvents:store:)``. Nothing is consumed.
    public static func openWelcome(gift: UnwrappedGift, recipient: Secp256k1.PrivateKey, store: KeyPackageStore) throws -> MarmotWelcomeJoin {
        let parsed: MarmotWelcomeRumor.Parsed
        do { parsed = try MarmotWelcomeRumor.parse(gift.rumor) } catch let e as MLSError where e.code == .treeChunkInvalid { throw e } catch {
            throw MLSError(.invalidWelcome, "\(error)")
        }
        guard gift.rumor.pubkey == gift.sender.hex else { throw MLSError(.invalidWelcome, "rumor author is not the wrap's sender") }
        let welcome = try MLSGroupState.welcome(parsed.welcomeMessage)
        var found: (ref: [UInt8], bundle: KeyPackageBundle)?
        for entry in welcome.secrets {
            if let b = try store.bundle(reference: entry.newMember) { found = (entry.newMember, b); break }
        }
        guard let found else { throw MLSError(.notFound, "no stored KeyPackage for this Welcome") }
        guard found.bundle.keyPackage.leafNode.credential.identity == recipient.publicKey.rawRepresentation else {
            throw MLSError(.invalidWelcome, "Welcome is for another identity")
        }
        let opening = try MLSGroupState.openWelcome(welcome, keyPackage: found.bundle)
        switch (opening.treeIsOutOfBand, parsed.treeChunks) {
        case (true, nil):
            throw MLSError(.treeChunksMissing, "the Welcome's tree is out of band but the rumor names no tree_chunks")
        case (false, _?):
            throw MLSError(.treeChunkInvalid, "the rumor names tree chunks for a Welcome without an out-of-band tree")
        case let (true, reference?) where reference.treeHash != opening.treeHash:
            throw MLSError(.treeChunkInvalid, "the tree_chunks tag names another tree than the GroupInfo")
        default:
            break
        }
        return MarmotWelcomeJoin(parsed: parsed, sender: gift.sender.rawRepresentation, reference: found.ref, opening: opening)
    }

    /// Completes ``openWelcome(gift:recipient:store:)``: reassembles the tree from
    /// `treeChunkEvents` when the Welcome's tree is out of band (extra events are ignored), joins,
    /// checks the sender is an admin, and only then consumes the KeyPackage. Missing chunks are
    /// `tree_chunks_missing`; chunks that do not decrypt or make up another tree are
    /// `tree_chunk_invalid` or `tree_hash_mismatch`. On any error the KeyPackage stays usable.
    public static func join(_ opened: MarmotWelcomeJoin, treeChunkEvents: [NostrEvent] = [], store: KeyPackageStore) throws -> MarmotGroup {
        var tree: RatchetTree?
        if let reference = opened.treeChunks {
            let sealed = try RatchetTreeChunks.sealedChunks(treeChunkEvents, for: reference)
            tree = try opened.opening.openTreeChunks(sealed, treeLength: reference.treeLength)
        }
        let state = try MLSGroupState.join(opened.opening, ratchetTree: tree)
        let data = try MarmotGroupData(extensions: state.groupContextExtensions)
        try checkWelcomeSender(opened.sender, state: state, data: data)
        try store.consume(reference: opened.reference)
        return MarmotGroup(state: state, groupData: data)
    }
}
