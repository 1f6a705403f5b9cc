import InviteKitCrypto
import InviteKitNostr

extension GroupSession {
    /// Sends an application event: `inner` becomes an unsigned rumor authored by this member and is
    /// encrypted into a kind-445 event.
    public func message(_ inner: EventTemplate, now: Int64 = UnixTime.now(), rng: RandomSource = SystemRandom()) throws -> NostrEvent {
        let author = try Secp256k1.XOnlyPublicKey(rawRepresentation: state.ownIdentity)
        let rumor = inner.rumor(pubkey: author, now: now)
        return try GroupEvent.make(sealed: try encryptApplication(rumor.jsonBytes, rng: rng), nostrGroupID: state.nostrGroupID, now: now, rng: rng)
    }

    /// This member's leave request (SelfRemove) as a kind-445 event.
    public func leaveEvent(now: Int64 = UnixTime.now(), rng: RandomSource = SystemRandom()) throws -> NostrEvent {
        try GroupEvent.make(sealed: try encryptLeaveRequest(rng: rng), nostrGroupID: state.nostrGroupID, now: now, rng: rng)
    }

    /// A commit as a kind-445 event. Publish `event`, then call
    /// ``confirmPublished(_:acknowledgedBy:)``.
    public func commit(_ actions: [CommitAction], now: Int64 = UnixTime.now(), rng: RandomSource = SystemRandom()) throws -> PendingCommit {
        let (bundle, sealed) = try createCommit(actions, rng: rng)
        let event = try GroupEvent.make(sealed: sealed, nostrGroupID: state.nostrGroupID, now: now, rng: rng)
        return PendingCommit(event: event, bundle: bundle, sealed: sealed)
    }

    /// The explicit "commit published" step: `relays` are the relays that acknowledged the commit
    /// event (at least one). Only now are the Welcomes released (Marmot MIP-02 state-fork rule; PROTOCOL.md §5.6).
    public mutating func confirmPublished(_ pending: PendingCommit, acknowledgedBy relays: [String]) throws -> [LegacyWelcome] {
        guard !relays.isEmpty else { throw GroupError(.commitNotPublished, "no relay acknowledged the commit") }
        guard let id = Hex.decode(pending.event.id, count: 32) else { throw GroupError(.invalidEvent, "event id") }
        return try confirmPublished(pending.bundle, sealed: pending.sealed, createdAt: pending.event.createdAt, eventID: id)
    }

    /// Processes a kind-445 event of this group.
    public mutating func receive(event: NostrEvent) throws -> [GroupEventOutcome] {
        let (sealed, order) = try GroupEvent.open(event, nostrGroupID: state.nostrGroupID)
        return try receive(sealed, createdAt: order.createdAt, eventID: order.eventID).map(GroupSession.nostrOutcome)
    }

    static func nostrOutcome(_ o: Outcome) -> GroupEventOutcome {
        switch o {
        case .application(let sender, let body, let epoch):
            guard let inner = try? NostrEvent(json: body, requireSignature: false) else {
                return .rejectedMessage(GroupError(.malformed, "inner event is not an event"))
            }
            guard inner.sig == nil else { return .rejectedMessage(GroupError(.malformed, "inner event must be unsigned")) }
            guard inner.pubkey == Hex.encode(sender) else {
                return .rejectedMessage(GroupError(.senderMismatch, "inner pubkey is not the MLS sender"))
            }
            guard (try? inner.verifyId()) != nil else { return .rejectedMessage(GroupError(.malformed, "inner event id")) }
            return .message(inner, epoch: epoch)
        case .commitApplied(let e): return .commitApplied(epoch: e)
        case .rolledBack(let a, let b): return .rolledBack(toEpoch: a, nowAt: b)
        case .leaveRequest(let id): return .leaveRequest(pubkey: Hex.encode(id))
        case .removed: return .removed
        }
    }

    /// Joins from a gift-wrapped Welcome: unwraps it (NIP-59), reads the kind-444 rumor and joins
    /// with the stored KeyPackage. The (verified) sender of the wrap must be an admin in the
    /// Welcome's roster; on any failure the KeyPackage stays in the store.
    public static func join(giftWrap: NostrEvent, recipient: Secp256k1.PrivateKey, store: KeyPackageStore) throws -> GroupSession {
        let gift: UnwrappedGift
        do { gift = try GiftWrap.unwrap(giftWrap, recipient: recipient) } catch { throw GroupError(.invalidWelcome, "gift wrap: \(error)") }
        return try join(gift: gift, recipient: recipient, store: store)
    }

    /// As ``join(giftWrap:recipient:store:)`` for a wrap the caller has already opened.
    public static func join(gift: UnwrappedGift, recipient: Secp256k1.PrivateKey, store: KeyPackageStore) throws -> GroupSession {
        let (welcome, _, _) = try WelcomeEvent.parse(gift.rumor)
        guard let bundle = try store.bundle(reference: welcome.keyPackageRef) else {
            throw GroupError(.unknownKeyPackage, "no stored KeyPackage for this Welcome")
        }
        guard bundle.keyPackage.leafNode.credential.identity == recipient.publicKey.rawRepresentation else {
            throw GroupError(.invalidWelcome, "Welcome is for another identity")
        }
        let state = try GroupState.join(welcome: welcome, bundle: bundle)
        // Only an admin can have added us; the gift wrap's verified sender must be one, so a
        // stranger who knows our KeyPackage cannot invent a group around us under their own name.
        guard state.members.contains(where: { $0.isAdmin && $0.identity == gift.sender.rawRepresentation }) else {
            throw GroupError(.invalidWelcome, "Welcome was not sent by an admin of the group")
        }
        try store.consume(reference: welcome.keyPackageRef)
        return GroupSession(state: state)
    }
}
