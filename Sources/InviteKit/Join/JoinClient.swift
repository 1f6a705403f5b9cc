import InviteKitCrypto
import InviteKitNostr
import InviteKitInvites
import InviteKitMLS

/// The joiner's side: checks an invite locally, sends the join request, and turns what comes
/// back (a Welcome or a join error) into a ``JoinState`` through the one ``JoinStateMachine``
/// (which ``InviteKitNode`` drives too, through its stored joins).
public struct JoinClient: Sendable {
    public let key: Secp256k1.PrivateKey
    public let keyPackages: any KeyPackageStore
    public private(set) var machine = JoinStateMachine()
    /// The group, once joined.
    public private(set) var group: MarmotMLSGroup?
    /// Why the last Welcome could not be processed. One made for this join's KeyPackage also
    /// ends the join (``JoinStateMachine/Event/welcomeFailed(_:)``); any other leaves it waiting.
    /// The KeyPackage is kept either way.
    public private(set) var lastWelcomeError: InviteKitError?
    /// The events the machine refused, in order (``JoinStateMachine/Refusal``): a join error
    /// for another invite, anything after a cancel or a finished join.
    public private(set) var refused: [JoinStateMachine.Refusal] = []
    /// The inviter's `invite_join_error` as received (type, tag, reason, timestamp), once one
    /// for the invite being joined ended the join. ``state`` holds the mapped ``InviteKitError``.
    public private(set) var joinError: InviteJoinError?
    private var inviter: Secp256k1.XOnlyPublicKey?
    private var keyPackageEvent: NostrEvent?
    /// The join's KeyPackage, kept after the Welcome consumed it from the store: when the add
    /// lost a commit race the inviter re-adds it, and the newer Welcome needs its private keys.
    private var bundle: KeyPackageBundle?
    private let rng: RandomSource

    public var state: JoinState { machine.state }

    public init(key: Secp256k1.PrivateKey, keyPackages: any KeyPackageStore, rng: RandomSource = SystemRandom()) {
        self.key = key; self.keyPackages = keyPackages; self.rng = rng
    }

    /// What to publish to start a join: the KeyPackage event and the gift-wrapped join request.
    public struct Outgoing: Sendable {
        public let keyPackageEvent: NostrEvent
        public let joinRequest: NostrEvent
        /// Where to send them: the invite's relays (a Whistle code's one relay).
        public let relays: [String]
        /// The signed invite's tag; `nil` for a Whistle code, which has none.
        public let tag: String?
        /// Who the request goes to: the signed invite's creator, or the Whistle code's npub.
        public let inviter: Secp256k1.XOnlyPublicKey
    }

    /// Whom a join request goes to, read from either invite format.
    private struct Target {
        let inviter: Secp256k1.XOnlyPublicKey
        let relays: [String]
        let tag: String?
        let groupId: String
        /// The profile of the KeyPackage the group takes (PROTOCOL §3.2, field 101); a Whistle
        /// code does not say, so its joins make current-profile ones.
        var profile: MarmotWireProfile = .current
    }

    /// Checks an invite locally and, if it holds, prepares the join request. A signed invite's
    /// signature and expiry are checked (PROTOCOL §3); a Whistle code (`whistle://invite/…`,
    /// §2) has neither, so only its fields are checked and the inviter's admin decides (§8.3
    /// rule 5). A failed check ends in `joinFailed` and throws the same error: nothing is sent.
    /// A client makes one join: a second `start` is refused (`message_rejected`,
    /// `join_not_expected`) before anything is made.
    public mutating func start(invite text: String, name: String? = nil, now: Int64 = UnixTime.now()) throws(InviteKitError) -> Outgoing {
        // A client starts one join: a second start is refused before anything is made.
        try machine.apply(.validate)
        let target: Target
        do {
            target = try Self.target(of: text, now: now)
        } catch {
            let failure = InviteKitError.from(error)
            feed(.invalid(failure))
            throw failure
        }
        // The state machine matches join errors by tag; a Whistle join gets none (no tag to name).
        let tag = target.tag ?? ""
        do {
            let relays = target.relays
            let (kpEvent, bundle) = try KeyPackageEvent.create(nostrKey: key, relays: relays, lastResort: false, profile: target.profile, now: now, rng: rng)
            try keyPackages.save(bundle)
            self.bundle = bundle
            let request = WhistleJoinRequest(groupId: target.groupId, pubkey: key.publicKey.hex, keyPackage: kpEvent, name: name, invite: text)
            let wrap = try GiftWrap.wrap(template: request.rumorTemplate(now: now), from: key, to: target.inviter, now: now, using: rng)
            inviter = target.inviter
            keyPackageEvent = kpEvent
            feed(.requested(tag: tag))
            return Outgoing(keyPackageEvent: kpEvent, joinRequest: wrap, relays: relays, tag: target.tag, inviter: target.inviter)
        } catch {
            let failure = InviteKitError.from(error)
            feed(.invalid(failure))
            throw failure
        }
    }

    /// Applies one event; a refused one is kept in ``refused``. Returns whether the state moved.
    @discardableResult
    private mutating func feed(_ event: JoinStateMachine.Event) -> Bool {
        do {
            try machine.apply(event)
            return true
        } catch {
            refused.append(JoinStateMachine.Refusal(error) ?? .notExpected)
            return false
        }
    }

    /// The Nostr group id a Whistle code names (its `groupId`); `nil` for a signed invite, whose
    /// conversation token only the inviter can read.
    static func invitedNostrGroupID(_ text: String) -> String? {
        guard case .whistle(let code)? = try? AnyInvite(parsing: text), !code.groupId.isEmpty else { return nil }
        return code.groupId.lowercased()
    }

    /// The one place the two invite formats differ for a joiner. Which format a text is, is
    /// ``AnyInvite``'s to say, and whether a signed invite holds (signature, then expiries) is
    /// ``InviteValidator``'s: the joiner asks them, as the CLI's `invite verify` does.
    private static func target(of text: String, now: Int64) throws -> Target {
        switch try AnyInvite(parsing: text) {
        case .whistle(let code):
            if let problem = code.fieldProblem { throw InviteError(.invalidArgument, problem) }
            guard let inviter = code.inviterKey else { throw InviteError(.invalidNpub) }
            return Target(inviter: inviter, relays: [code.relay], tag: nil, groupId: code.groupId)
        case .signed(let invite):
            let verdict = InviteValidator.validate(invite, context: InviteValidationContext(now: now))
            if let error = verdict.error { throw error }
            guard let inviter = verdict.creator else { throw InviteError(.invalidSignature, "the invite's signer could not be recovered") }
            return Target(inviter: inviter, relays: invite.payload.relays, tag: invite.payload.tag, groupId: "",
                          profile: invite.payload.mipProfile ? .mip : .current)
        }
    }

    /// Feeds one opened gift wrap. Only messages from the inviter count.
    public mutating func handle(_ gift: UnwrappedGift) {
        guard gift.sender == inviter, let message = try? SealedMessage(gift) else { return }
        switch message {
        case .inviteJoinError(let e):
            if feed(.rejected(tag: e.inviteTag, errorType: e.errorType)) { joinError = e }
        case .welcome:
            switch machine.state {
            case .joining:
                do {
                    // The group layer also requires the gift's sender to be an admin of the group.
                    let joined = try MarmotMLSGroup.join(gift: gift, recipient: key, store: keyPackages)
                    group = joined
                    feed(.welcomeMatched(JoinedGroup(groupID: Hex.encode(joined.state.groupID), nostrGroupID: Hex.encode(joined.nostrGroupID),
                                                     epoch: joined.epoch)))
                } catch {
                    let failure = InviteKitError.from(error)
                    lastWelcomeError = failure  // the KeyPackage stays in the store
                    // Only a Welcome made for this join's KeyPackage answers it, as on a node.
                    let named = (try? MarmotMLSGroup.keyPackageReferences(ofWelcomeRumor: gift.rumor)) ?? []
                    if let bundle, named.contains(bundle.reference) { feed(.welcomeFailed(failure)) }
                }
            case .joined:
                rejoin(gift)
            default:
                return
            }
        case .joinRequest, .other:
            return
        }
    }

    /// A newer Welcome for the group already joined: the inviter re-added this member because
    /// its first add lost a commit race, so the joined state sits on a dead branch. The new
    /// state replaces it when it is for the same group at a later epoch.
    private mutating func rejoin(_ gift: UnwrappedGift) {
        guard let current = group, let bundle else { return }
        let retained = MemoryKeyPackageStore()
        do {
            try retained.save(bundle)
            let joined = try MarmotMLSGroup.join(gift: gift, recipient: key, store: retained)
            guard joined.nostrGroupID == current.nostrGroupID, joined.epoch > current.epoch else { return }
            group = joined
        } catch {
            lastWelcomeError = InviteKitError.from(error)
        }
    }

    /// Feeds one kind-445 event of the joined group.
    public mutating func receive(_ event: NostrEvent, now: Int64 = UnixTime.now()) -> [MarmotOutcome] {
        guard group != nil else { return [] }
        return group!.receive(event: event, now: now)
    }

    /// Offline catch-up: the same inputs in `created_at` order (ties by id) reach the same state
    /// as if they had arrived live. Wraps that failed to open are left in the batch's failures.
    public mutating func catchUp(_ batch: BatchResult<UnwrappedGift, NostrEvent>) {
        let ordered = batch.succeeded.sorted { ($0.rumor.createdAt, $0.rumor.id) < ($1.rumor.createdAt, $1.rumor.id) }
        for gift in ordered { handle(gift) }
    }

    public mutating func cancel() { feed(.cancel) }

    /// Once joined, the KeyPackage event to delete with NIP-09 (kind 5), so nobody else uses it.
    /// `nil` before joining and for a last-resort package, which stays published.
    public var keyPackageEventToDelete: NostrEvent? {
        guard case .joined = machine.state, let event = keyPackageEvent,
              let validated = try? KeyPackageValidator.validate(event, now: event.createdAt), !validated.isLastResort else { return nil }
        return event
    }
}
