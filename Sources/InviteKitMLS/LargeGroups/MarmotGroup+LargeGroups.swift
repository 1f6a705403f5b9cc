import InviteKitCrypto
import InviteKitNostr

/// The committer's side of large groups (PROTOCOL §5.11): every event within an ``EventBudget``,
/// one Welcome per added member, the ratchet tree out of band when it does not fit.
///
/// Order on the wire: the kind-445 commit; once a relay acknowledged it,
/// ``confirmPublished(_:acknowledgedBy:wrappingWelcomesFrom:budget:now:rng:)`` applies it and
/// returns the tree chunk events, to publish first, and the gift-wrapped Welcomes, to publish after.
extension MarmotGroup where Engine == MLSGroupState {
    /// JSON bytes of this group's kind-444 rumor with empty content (inline tree).
    func welcomeRumorOverheadBytes(now: Int64) -> Int {
        let zeros = String(repeating: "0", count: 64)
        let tags = profile == .mip ? [["relays"] + groupData.relays, ["e", zeros], ["client", KeyPackageEvent.clientName], ["encoding", "base64"]]
            : [["e", zeros], ["relays"] + groupData.relays]
        return NostrEvent(id: zeros, pubkey: zeros, createdAt: max(now, 1_000_000_000), kind: MarmotWelcomeRumor.kind, tags: tags,
                          content: "", sig: nil).jsonBytes.count
    }

    /// The tree stays inline while the gift-wrapped one-member Welcome fits `budget`, and always
    /// in a group that did not negotiate the out-of-band tree (``MarmotGroupData/outOfBandTree``):
    /// a member that does not know our component (an MDK client) reads only inline trees.
    public func welcomeTreePolicy(budget: EventBudget, now: Int64 = UnixTime.now()) -> WelcomeTreePolicy {
        guard groupData.outOfBandTree else { return .inline }
        return WelcomeTreePolicy(maxInlineWelcomeBytes: budget.maxWelcomeMessageBytes(rumorOverheadBytes: welcomeRumorOverheadBytes(now: now)))
    }

    /// ``commit(adding:removing:groupData:includeSelfRemoves:now:rng:)`` within `budget`: the
    /// Welcome's tree goes out of band when an inline one would not fit, and a commit event over
    /// the budget is `event_too_large` (split the adds with ``nextAddCommit(from:budget:now:rng:)``).
    public func commit(adding keyPackages: [ValidatedKeyPackage] = [], removing: [[UInt8]] = [], groupData newData: MarmotGroupData? = nil,
                       includeSelfRemoves: Bool = false, budget: EventBudget, now: Int64 = UnixTime.now(),
                       rng: RandomSource = SystemRandom()) throws -> MarmotPendingCommit<MLSGroupState> {
        let pending = try uncheckedCommit(adding: keyPackages, removing: removing, groupData: newData, includeSelfRemoves: includeSelfRemoves,
                                          budget: budget, now: now, rng: rng)
        try budget.check(pending.event, "the commit event")
        return pending
    }

    /// The commit, Welcome tree policy from `budget`, without the size check on its event.
    func uncheckedCommit(adding keyPackages: [ValidatedKeyPackage], removing: [[UInt8]], groupData newData: MarmotGroupData?,
                         includeSelfRemoves: Bool, budget: EventBudget, now: Int64, rng: RandomSource) throws -> MarmotPendingCommit<MLSGroupState> {
        let addsOnly = !keyPackages.isEmpty && removing.isEmpty && newData == nil && !includeSelfRemoves
        return try commit(adding: keyPackages, removing: removing, groupData: newData, includeSelfRemoves: includeSelfRemoves,
                          welcomeTree: welcomeTreePolicy(budget: budget, now: now),
                          includeUpdatePath: !(addsOnly && updatePathIsOverHalf(of: budget)), now: now, rng: rng)
    }

    /// Wire bytes of one UpdatePath ciphertext in a kind-445 event: an HPKE ciphertext of a path
    /// secret (32-byte KEM output, 32 + 16 bytes sealed, length prefixes), base64-encoded.
    static let pathCiphertextWireBytes = 112

    /// Whether this member's UpdatePath would take more than half of `budget`: then its add-only
    /// commits go without one (PROTOCOL §5.11), which RFC 9420 §12.4 allows, so adding stays
    /// possible in a tree whose parents are blank (one just built by adds). Below that, add
    /// commits keep their path, as MDK's do.
    package func updatePathIsOverHalf(of budget: EventBudget) -> Bool {
        LargeGroupFill.pathCiphertexts(tree: state.tree, leaf: state.ownLeaf) * Self.pathCiphertextWireBytes > budget.maxEventBytes / 2
    }

    /// The "commit published" step for large groups: applies the commit (as
    /// ``confirmPublished(_:acknowledgedBy:now:)``), then builds, each within `budget`, the tree
    /// chunk events (when the Welcome's tree is out of band) and one gift-wrapped Welcome per added
    /// KeyPackage holding only the `EncryptedGroupSecrets` of that recipient's KeyPackages.
    /// A build error after the commit was applied leaves the group applied; the Welcomes can be
    /// rebuilt with ``welcomeRelease(for:wrappingWelcomesFrom:budget:now:rng:)``.
    public mutating func confirmPublished(_ pending: MarmotPendingCommit<MLSGroupState>, acknowledgedBy relays: [String],
                                          wrappingWelcomesFrom committer: Secp256k1.PrivateKey, budget: EventBudget,
                                          now: Int64 = UnixTime.now(), rng: RandomSource = SystemRandom()) throws -> MarmotCommitRelease {
        guard committer.publicKey.rawRepresentation == state.ownIdentity else {
            throw MLSError(.invalidKey, "the wrapping key is not this member's identity")
        }
        try applyPublished(pending, acknowledgedBy: relays)
        return try welcomeRelease(for: pending, wrappingWelcomesFrom: committer, budget: budget, now: now, rng: rng)
    }

    /// The chunk events and per-member Welcomes of `pending`, the commit this group applied last.
    public func welcomeRelease(for pending: MarmotPendingCommit<MLSGroupState>, wrappingWelcomesFrom committer: Secp256k1.PrivateKey,
                               budget: EventBudget, now: Int64 = UnixTime.now(), rng: RandomSource = SystemRandom()) throws -> MarmotCommitRelease {
        guard let welcome = pending.pending.welcomeValue, !pending.keyPackageEvents.isEmpty else {
            return MarmotCommitRelease(treeChunks: [], welcomes: [])
        }
        guard pending.pending.toEpoch == state.epoch else {
            throw MLSError(.staleCommit, "the Welcomes of epoch \(pending.pending.toEpoch) are asked for at epoch \(state.epoch)")
        }
        let info = try MLSGroupState.openGroupInfo(welcome: welcome, welcomeSecret: state.epochSecrets.welcomeSecret)
        var chunks: [NostrEvent] = []
        var reference: RatchetTreeChunks.Reference?
        if info.extension(RatchetTreeExtension.extensionType) == nil {
            let made = try RatchetTreeChunks.events(tree: state.tree.tlsSerialized, treeHash: state.groupContext.treeHash,
                                                    welcomeSecret: state.epochSecrets.welcomeSecret, suite: state.cipherSuite,
                                                    budget: budget, now: now, rng: rng)
            chunks = made.events
            reference = made.reference
        }
        let added = pending.pending.added
        guard added.count == pending.keyPackageEvents.count else {
            throw MLSError(.invalidValue, "\(pending.keyPackageEvents.count) KeyPackage events for \(added.count) added members")
        }
        let author = try Secp256k1.XOnlyPublicKey(rawRepresentation: state.ownIdentity)
        // A recipient's wraps reach every device of its key, so it gets the entries of all its KeyPackages.
        var refsByIdentity: [[UInt8]: [[UInt8]]] = [:]
        for member in added { refsByIdentity[member.keyPackage.leafNode.credential.identity, default: []].append(member.keyPackage.reference) }
        let perMember = try welcome.restricted(toEach: added.map { refsByIdentity[$0.keyPackage.leafNode.credential.identity] ?? [] })
        var welcomes: [MarmotWelcomeDelivery] = []
        for (event, own) in zip(pending.keyPackageEvents, perMember) {
            let rumor = try MarmotWelcomeRumor.make(welcomeMessage: MLSMessage(.welcome(own)).tlsSerialized, keyPackageEventID: event.id,
                                                    relays: groupData.relays, committer: author, createdAt: now, treeChunks: reference,
                                                    profile: profile)
            let joiner: Secp256k1.XOnlyPublicKey
            do { joiner = try event.authorKey() } catch { throw MLSError(.invalidEvent, "KeyPackage event author") }
            let wrap = try GiftWrap.wrap(rumor, from: committer, to: joiner, now: now, using: rng)
            try budget.check(wrap, "the Welcome gift wrap")
            welcomes.append(MarmotWelcomeDelivery(recipient: event.pubkey, keyPackageEventID: event.id, wrap: wrap))
        }
        return MarmotCommitRelease(treeChunks: chunks, welcomes: welcomes)
    }
}
