import InviteKitCrypto
import InviteKitNostr

/// One member's Marmot group over an RFC 9420 engine: events in, typed outcomes out (MIP-01..03).
/// It enforces the Marmot rules the engine does not know: only admins commit, except pure
/// self-updates and SelfRemove-only commits; commit races go to the earliest `created_at`, then the
/// smallest event id, with rollback over the retained epochs; replays are dropped; Welcomes are
/// released only after a relay acknowledged their commit; a failed Welcome keeps its KeyPackage.
public struct MarmotGroup<Engine: MarmotEngine>: Sendable {
    /// The state before a commit this member applied, with that commit's ordering key.
    struct Snapshot: Sendable {
        let state: Engine
        let groupData: MarmotGroupData
        var createdAt: Int64
        var eventID: String
        let contentHash: [UInt8]
        let added: [[UInt8]]
        let keyPackageEvents: [String: NostrEvent]
        /// Who made the applied commit (32 bytes; empty in states stored before version 3).
        var committer: [UInt8] = []
        /// SHA-256 of the applied commit's MLSMessage bytes, its `commit_digest` (convergence v1;
        /// empty in states stored before version 4).
        var commitDigest: [UInt8] = []
        /// The applied commit's ordering class (convergence v1).
        var priority: CommitPriority = .privileged
        /// Account identities that wrote valid application messages at this snapshot's epoch, at
        /// most ``ConvergencePolicy/witnessQuorumSendersPerEpoch`` (convergence v1 witnesses).
        var witnesses: [[UInt8]] = []
        var epoch: UInt64 { state.epoch }
    }

    public internal(set) var state: Engine
    public internal(set) var groupData: MarmotGroupData
    var snapshots: [Snapshot] = []
    /// The events this member accepted or sent, per epoch, to drop replays before any work
    /// (PROTOCOL.md §5.9). Not part of ``serialized()``: a caller saves it on its own, as rows
    /// (``MarmotSeenLog/changes``, then ``MarmotSeenLog/markSaved()``) or whole
    /// (``MarmotSeenLog/serialized()``), when a ``MarmotReceipt`` says it changed, and sets it
    /// back after loading the group. A state read from version 4 or older brings its entries here.
    public var seenLog = MarmotSeenLog()
    /// Events waiting for a key (PROTOCOL.md §5.9). Not part of ``serialized()``: a caller that
    /// keeps them across restarts saves ``MarmotEventBuffer/serialized()`` on its own, when a
    /// ``MarmotReceipt`` says the buffer changed, and sets it back after loading the group.
    public var buffer = MarmotEventBuffer()
    /// Members whose SelfRemove arrived this epoch (hex keys); an admin commits them.
    public internal(set) var leaveRequests: [String] = []
    /// Witnesses at the current epoch (see ``Snapshot/witnesses``).
    var currentWitnesses: [[UInt8]] = []
    /// The last convergence decision this member made on a fork (current profile), for the app
    /// and for conformance traces; not stored.
    public internal(set) var lastConvergenceDecision: ConvergenceDecision?
    /// Commits that lost a fork while their branch may still win a later decision (witnesses
    /// arriving for it), at most ``MarmotProfile/losingBranchLimit``; in memory only.
    var losingBranches: [LosingBranch] = []
    /// This member's own commit that lost when its relay's OK came after a competitor: kept, like
    /// a received loser, so that a later witness can still select it; in memory only.
    package var losingOwnCommit: (pending: MarmotPendingCommit<Engine>, forkEpoch: UInt64, tipKey: SecureBytes)?

    init(state: Engine, groupData: MarmotGroupData) {
        self.state = state
        self.groupData = groupData
    }

    public var epoch: UInt64 { state.epoch }
    public var nostrGroupID: [UInt8] { groupData.nostrGroupID }
    public var isAdmin: Bool { groupData.isAdmin(state.ownIdentity) }
    public var isRemoved: Bool { state.isRemoved }
    /// Events waiting for a key.
    public var bufferedCount: Int { buffer.count }

    /// The group's Marmot profile, fixed for its life (PROTOCOL §5.12).
    public var profile: MarmotWireProfile { groupData.profile }

    /// Creates a group whose only member is `creator`, an admin. The group speaks the profile of
    /// the creator's KeyPackage. In the current profile every admin must hold a leaf
    /// (`admin-policy-v1.md`), so `otherAdmins` is refused there: add them, then promote them.
    /// `retentionSeconds` turns on disappearing messages (current profile, component `0x8005`);
    /// `outOfBandTree` negotiates InviteKit's out-of-band ratchet tree (PROTOCOL §5.11; only
    /// InviteKit members can then join).
    public static func create(creator: KeyPackageBundle, name: String, description: String = "", otherAdmins: [[UInt8]] = [],
                              relays: [String], retentionSeconds: UInt64? = nil, outOfBandTree: Bool = false,
                              rng: RandomSource = SystemRandom()) throws -> MarmotGroup {
        let identity = creator.keyPackage.leafNode.credential.identity
        let profile = creator.keyPackage.profile
        if profile == .current, !otherAdmins.isEmpty {
            throw MLSError(.invalidGroupData, "in the current profile an admin must be a member: add them first, then make them admins")
        }
        var data = try MarmotGroupData.create(profile: profile, name: name, description: description, admins: [identity] + otherAdmins,
                                              relays: relays, retentionSeconds: retentionSeconds, rng: rng)
        if outOfBandTree {
            guard profile == .current else { throw MLSError(.invalidGroupData, "the out-of-band tree is negotiated as a current-profile component") }
            data.requiredComponents = ComponentsList(data.requiredComponents.ids + [ComponentID.inviteKitTreeChunks])
        }
        let state = try Engine.create(groupID: rng.bytes(32), creator: creator, extensions: try data.groupContextExtensions(), rng: rng)
        return MarmotGroup(state: state, groupData: data)
    }

    // MARK: sending

    /// The kind-445 key of the current epoch.
    func currentKey() -> SecureBytes { Self.groupEventKey(of: state) }

    /// The kind-445 content key of `s`'s epoch (MIP-03): the one derivation every sealing and
    /// opening asks.
    static func groupEventKey(of s: Engine) -> SecureBytes {
        s.exporter(label: MarmotProfile.groupEventExporterLabel, context: MarmotProfile.groupEventExporterContext,
                   length: MarmotProfile.groupEventKeyLength)
    }

    /// Sends an application event: `inner` becomes an unsigned rumor authored by this member.
    public mutating func message(_ inner: EventTemplate, now: Int64 = UnixTime.now(), rng: RandomSource = SystemRandom()) throws -> NostrEvent {
        try sendApplication(inner, now: now, rng: rng).event
    }

    /// ``message(_:now:rng:)`` returning the inner app event as well (its id is what reactions,
    /// replies, edits and deletions name) and its expiry under the group's retention (PROTOCOL
    /// §5.15). A sender-supplied inner `expiration` tag is dropped: retention is group state.
    public mutating func sendApplication(_ inner: EventTemplate, now: Int64 = UnixTime.now(),
                                         rng: RandomSource = SystemRandom()) throws -> (event: NostrEvent, rumor: NostrEvent, expiresAt: Int64?) {
        guard !state.isRemoved else { throw MLSError(.notMember, "removed from the group") }
        let author = try Secp256k1.XOnlyPublicKey(rawRepresentation: state.ownIdentity)
        var inner = inner
        if profile == .current { inner.tags.removeAll { $0.first == MessageRetentionV1.expirationTag } }
        let rumor = inner.rumor(pubkey: author, now: now)
        let bytes = try MarmotApplicationMessage.encode(rumor)
        let mls = try state.sealApplication(bytes, rng: rng)
        let expiration = MessageRetentionV1.expiry(createdAt: rumor.createdAt, seconds: groupData.retentionSeconds)
        // One's own message is part of one's input, as every recipient's: it witnesses this epoch.
        recordWitness(epoch: state.epoch, sender: state.ownIdentity)
        let event = try MarmotGroupEvent.make(mlsMessage: mls, nostrGroupID: nostrGroupID, key: currentKey(), profile: profile,
                                              expiration: expiration, createdAt: now, rng: rng)
        return (sent(event, epoch: state.epoch), rumor, expiration)
    }

    /// The retention seconds of the epoch a message was sent in (`message-retention-v1.md`: each
    /// message pins its source epoch's retention): the current epoch's, or a retained one's; an
    /// epoch no longer retained reads as the current one.
    public func retentionSeconds(atEpoch epoch: UInt64) -> UInt64? {
        if epoch == state.epoch { return groupData.retentionSeconds }
        return snapshots.last(where: { $0.epoch == epoch })?.groupData.retentionSeconds ?? groupData.retentionSeconds
    }

    /// This member's SelfRemove proposal as a kind-445 event.
    public mutating func leaveEvent(now: Int64 = UnixTime.now(), rng: RandomSource = SystemRandom()) throws -> NostrEvent {
        guard !state.isRemoved else { throw MLSError(.notMember, "removed from the group") }
        if profile == .current, isAdmin {
            // admin-policy-v1.md: an admin gives up admin rights before a SelfRemove.
            throw MLSError(.notAdmin, "an admin must give up admin rights before leaving")
        }
        let mls = try state.proposeSelfRemove(rng: rng)
        let event = try MarmotGroupEvent.make(mlsMessage: mls, nostrGroupID: nostrGroupID, key: currentKey(), profile: profile, createdAt: now, rng: rng)
        return sent(event, epoch: state.epoch)
    }

    /// Records `event`, sealed under `epoch`'s key, as seen: a relay's echo of it is a duplicate.
    mutating func sent(_ event: NostrEvent, epoch: UInt64) -> NostrEvent {
        recordSeen(event, contentHash: SHA256.hash(Array(event.content.utf8)), epoch: epoch)
        return event
    }

    /// The one way an event enters ``seenLog``: under the epoch it belongs to, with the window at
    /// the group's current epoch.
    mutating func recordSeen(_ event: NostrEvent, contentHash: [UInt8], epoch: UInt64) {
        seenLog.record(eventID: event.id, contentHash: contentHash, epoch: epoch, currentEpoch: state.epoch)
    }

    /// A commit adding the owners of validated KeyPackage events and removing `removing` (32-byte
    /// keys), optionally replacing the group data and including received SelfRemoves. Only admins
    /// may; anyone may make a pure self-update (``selfUpdate(now:rng:)``). Publish the event, then
    /// call ``confirmPublished(_:acknowledgedBy:now:)``.
    public func commit(adding keyPackages: [ValidatedKeyPackage] = [], removing: [[UInt8]] = [], groupData newData: MarmotGroupData? = nil,
                       includeSelfRemoves: Bool = false, now: Int64 = UnixTime.now(),
                       rng: RandomSource = SystemRandom()) throws -> MarmotPendingCommit<Engine> {
        try commit(adding: keyPackages, removing: removing, groupData: newData, includeSelfRemoves: includeSelfRemoves,
                   welcomeTree: .inline, includeUpdatePath: true, now: now, rng: rng)
    }

    /// The one commit builder: who may commit what (MIP-03), then the engine's commit and its
    /// kind-445 event. `welcomeTree` says how the Welcome carries the tree, `includeUpdatePath`
    /// whether an add-only commit carries a path (PROTOCOL §5.11).
    func commit(adding keyPackages: [ValidatedKeyPackage], removing: [[UInt8]], groupData newData: MarmotGroupData?,
                includeSelfRemoves: Bool, welcomeTree: WelcomeTreePolicy, includeUpdatePath: Bool, skipping: Set<MarmotSendRule> = [], now: Int64,
                rng: RandomSource) throws -> MarmotPendingCommit<Engine> {
        guard !state.isRemoved else { throw MLSError(.notMember, "removed from the group") }
        guard groupData.lifecycle != .disbanded || skipping.contains(.lifecycle) else {
            throw MLSError(.groupDisbanded, "the group is disbanded: it takes no further commit")
        }
        var newData = newData
        if profile == .current {
            for kp in keyPackages where kp.keyPackage.profile != .current {
                throw MLSError(.profileMismatch, "a MIP-profile KeyPackage cannot join a current-profile group")
            }
            // admin-policy-v1.md: a removed admin leaves the admin list in the same commit.
            let removedAdmins = removing.filter { (newData ?? groupData).isAdmin($0) }
            if !removedAdmins.isEmpty {
                var d = newData ?? groupData
                d.admins.removeAll { removedAdmins.contains($0) }
                newData = d
            }
            if var d = newData {
                // group-invite-links-v1.md: retiring an admin rotates the link generations in the same Commit.
                if !skipping.contains(.admin) {
                    d = try Self.rotatingInviteLinks(committer: state.ownIdentity, removed: removing, parent: groupData, resulting: d)
                    try Self.checkInviteLinks(committer: state.ownIdentity, removed: removing, from: groupData, to: d)
                }
                d.requiredComponents = d.requiredComponentsAfterChange(from: groupData)
                let members = Set(state.memberIdentities).subtracting(removing).union(keyPackages.map { $0.keyPackage.leafNode.credential.identity })
                guard d.admins.allSatisfy(members.contains) else { throw MLSError(.invalidGroupData, "every admin must be a member of the group") }
                newData = d
            }
        } else {
            for kp in keyPackages where kp.keyPackage.profile != .mip {
                throw MLSError(.profileMismatch, "a current-profile KeyPackage cannot join a MIP-profile group")
            }
        }
        let request = MarmotCommitRequest(adds: keyPackages.map(\.keyPackage), removes: removing, groupData: newData,
                                          includeSelfRemoves: includeSelfRemoves, welcomeTree: welcomeTree, includeUpdatePath: includeUpdatePath)
        let selfRemovesOnly = includeSelfRemoves && keyPackages.isEmpty && removing.isEmpty && newData == nil
        guard isAdmin || skipping.contains(.admin) || request.isSelfUpdate || selfRemovesOnly else {
            throw MLSError(.notAdmin, "only admins commit anything but a self-update")
        }
        if let newData { try newData.validate() }
        let (pending, message, welcome) = try state.makeCommit(request, rng: rng)
        let event = try MarmotGroupEvent.make(mlsMessage: message, nostrGroupID: nostrGroupID, key: currentKey(), profile: profile,
                                              createdAt: now, rng: rng)
        return MarmotPendingCommit(event: event, fromEpoch: state.epoch, pending: pending, welcome: welcome,
                                   keyPackageEvents: keyPackages.map(\.event),
                                   priority: request.isSelfUpdate || selfRemovesOnly ? .ordinary : .privileged)
    }

    /// A pure self-update commit (new leaf keys, no proposals): allowed to every member.
    public func selfUpdate(now: Int64 = UnixTime.now(), rng: RandomSource = SystemRandom()) throws -> MarmotPendingCommit<Engine> {
        try commit(now: now, rng: rng)
    }

    /// The "commit published" step: `relays` are the relays that acknowledged `pending.event` (at
    /// least one). Applies the commit and only then returns the Welcome rumors (kind 444, one per
    /// added member, unsigned, authored by this member) to gift-wrap. Fails with `stale_commit`
    /// when another commit for the same epoch was applied first: nothing is released, and the
    /// caller re-adds on the new epoch.
    public mutating func confirmPublished(_ pending: MarmotPendingCommit<Engine>, acknowledgedBy relays: [String],
                                          now: Int64 = UnixTime.now()) throws -> [NostrEvent] {
        try applyPublished(pending, acknowledgedBy: relays)
        guard let welcome = pending.welcome, !pending.keyPackageEvents.isEmpty else { return [] }
        let author = try Secp256k1.XOnlyPublicKey(rawRepresentation: state.ownIdentity)
        return try pending.keyPackageEvents.map {
            try MarmotWelcomeRumor.make(welcomeMessage: welcome, keyPackageEventID: $0.id, relays: groupData.relays, committer: author,
                                        createdAt: now, profile: profile)
        }
    }

    /// Applies a commit a relay acknowledged (the shared step of every `confirmPublished`); builds
    /// no Welcome, so callers that send per-member Welcomes never make the full-list ones.
    mutating func applyPublished(_ pending: MarmotPendingCommit<Engine>, acknowledgedBy relays: [String]) throws {
        guard !relays.isEmpty else { throw MLSError(.commitNotPublished, "no relay acknowledged the commit") }
        guard !state.isRemoved else { throw MLSError(.notMember, "removed from the group") }
        guard pending.fromEpoch == state.epoch else {
            // Another commit for that epoch came first. In the current profile the relay's OK
            // makes ours a candidate like any other (PROTOCOL §5.13): it replaces the branch if
            // it wins, and is stale only if it loses.
            if profile == .current, let i = snapshots.firstIndex(where: { $0.epoch == pending.fromEpoch }) {
                try convergeOwn(pending, at: i)
                return
            }
            throw MLSError(.staleCommit, "the group moved from epoch \(pending.fromEpoch) to \(state.epoch) before this commit was confirmed")
        }
        // The commit's own facts for convergence: its digest (over the MLSMessage bytes, which
        // the event seals under this epoch's key) and its ordering class.
        let sealed = try MarmotGroupEvent.envelope(pending.event, profile: profile, now: pending.event.createdAt).sealed
        guard let message = Self.open(sealed, in: state) else { throw MLSError(.invalidEvent, "the pending commit does not open under this epoch's key") }
        var next = state
        try next.merge(pending.pending)
        let newData = try MarmotGroupData(extensions: next.groupContextExtensions)
        var kpEvents: [String: NostrEvent] = [:]
        for e in pending.keyPackageEvents { kpEvents[e.pubkey] = e }
        let added = pending.keyPackageEvents.compactMap { Hex.decode($0.pubkey, count: 32) }
        pushSnapshot(Snapshot(state: state, groupData: groupData, createdAt: pending.event.createdAt, eventID: pending.event.id.lowercased(),
                              contentHash: SHA256.hash(Array(pending.event.content.utf8)), added: added, keyPackageEvents: kpEvents,
                              committer: state.ownIdentity, commitDigest: SHA256.hash(message),
                              priority: pending.priority ?? Self.storedCommitPriority(parent: state, next: next)))
        state = next
        currentWitnesses = []
        groupData = newData
        leaveRequests = []
        _ = sent(pending.event, epoch: pending.fromEpoch)
    }

    /// ``confirmPublished(_:acknowledgedBy:now:)``, then each Welcome rumor gift-wrapped (NIP-59)
    /// from `committer` to its KeyPackage's author. Returns the wraps to publish.
    public mutating func confirmPublished(_ pending: MarmotPendingCommit<Engine>, acknowledgedBy relays: [String],
                                          wrappingWelcomesFrom committer: Secp256k1.PrivateKey, now: Int64 = UnixTime.now(),
                                          rng: RandomSource = SystemRandom()) throws -> [NostrEvent] {
        guard committer.publicKey.rawRepresentation == state.ownIdentity else {
            throw MLSError(.invalidKey, "the wrapping key is not this member's identity")
        }
        let rumors = try confirmPublished(pending, acknowledgedBy: relays, now: now)
        return try zip(rumors, pending.keyPackageEvents).map { rumor, kp in
            let joiner: Secp256k1.XOnlyPublicKey
            do { joiner = try kp.authorKey() } catch { throw MLSError(.invalidEvent, "KeyPackage event author") }
            return try GiftWrap.wrap(rumor, from: committer, to: joiner, now: now, using: rng)
        }
    }

    /// The ordering class of an own commit stored without it (pending-commit version 1), from
    /// what it changed: no add, no removal and no extension change (a self-update) is
    /// `ordinary`; anything else counts as needing an admin.
    static func storedCommitPriority(parent: Engine, next: Engine) -> CommitPriority {
        Set(parent.memberIdentities) == Set(next.memberIdentities) && parent.groupContextExtensions == next.groupContextExtensions
            ? .ordinary : .privileged
    }

    mutating func pushSnapshot(_ s: Snapshot) {
        snapshots.append(s)
        if snapshots.count > MarmotProfile.epochLookback { snapshots.removeFirst(snapshots.count - MarmotProfile.epochLookback) }
    }
}
