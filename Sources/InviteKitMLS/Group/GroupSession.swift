import InviteKitCrypto

/// One member's group over time: the current epoch, snapshots of the last
/// ``retainedEpochs`` epochs for rollback and for decrypting late messages, replay detection and a
/// buffer of events that could not be opened yet (group.md §Ordering).
public struct GroupSession: Sendable {
    /// Epoch snapshots kept (MDK keeps 5).
    public static let retainedEpochs = 5
    /// Events kept for a later retry when no kept key opens them.
    public static let pendingLimit = 512

    /// What processing an event did.
    public enum Outcome: Sendable, Equatable {
        /// An application event from an authenticated member, at `epoch`.
        case application(sender: [UInt8], body: [UInt8], epoch: UInt64)
        /// A commit moved the group to `epoch`.
        case commitApplied(epoch: UInt64)
        /// A better commit for an earlier epoch replaced the applied branch; now at `epoch`.
        case rolledBack(toEpoch: UInt64, nowAt: UInt64)
        /// A member asked to leave (to be committed by an admin).
        case leaveRequest(identity: [UInt8])
        /// A commit removed this member.
        case removed
    }

    struct Snapshot: Sendable {
        /// State before the commit.
        let before: GroupState
        /// The commit applied to it.
        let order: CommitOrder
    }

    struct Pending: Sendable {
        let sealed: [UInt8]
        let order: CommitOrder
    }

    public private(set) var state: GroupState
    var history: [Snapshot] = []
    /// SHA-256 of accepted content, by the epoch whose key opened it. Digests of epochs that left
    /// the window are dropped: their keys are gone, so a replay cannot be opened anyway.
    var seen: [UInt64: Set<[UInt8]>] = [:]
    var pending: [Pending] = []
    /// Set when a commit removed this member: the order of that commit. ``state`` stays at the
    /// epoch before it, so that a better commit for that epoch can still reinstate the member.
    var removal: CommitOrder?
    /// `false` once a commit removed this member.
    public var isMember: Bool { removal == nil }
    /// Leave requests received and not yet committed.
    public private(set) var leaveRequests: [[UInt8]] = []

    public init(state: GroupState) { self.state = state }

    /// Epochs whose messages can still be opened (current first).
    public var decryptableEpochs: [UInt64] { [state.epoch] + history.reversed().map(\.before.epoch) }

    /// Events waiting for a key.
    public var pendingCount: Int { pending.count }

    // MARK: sending

    /// Encrypts an application body (the inner event JSON) for the current epoch.
    public func encryptApplication(_ body: [UInt8], rng: RandomSource = SystemRandom()) throws -> [UInt8] {
        guard isMember else { throw GroupError(.notAMember) }
        return try state.encrypt(state.sign(contentType: .application, body: body), rng: rng)
    }

    /// Encrypts this member's leave request.
    public func encryptLeaveRequest(rng: RandomSource = SystemRandom()) throws -> [UInt8] {
        guard isMember else { throw GroupError(.notAMember) }
        return try state.encrypt(state.leaveRequest(), rng: rng)
    }

    /// Builds a commit on the current epoch. Nothing changes until
    /// ``confirmPublished(_:sealed:createdAt:eventID:)``; returns the commit and its encrypted content.
    public func createCommit(_ actions: [CommitAction], rng: RandomSource = SystemRandom()) throws -> (bundle: CommitBundle, sealed: [UInt8]) {
        guard isMember else { throw GroupError(.notAMember) }
        let bundle = try state.createCommit(actions, rng: rng)
        return (bundle, try state.encrypt(bundle.plaintext, rng: rng))
    }

    /// Merges this member's own commit once relays acknowledged it, and only then returns its
    /// Welcomes (sending a Welcome before the Commit is published forks the joiner's state,
    /// Marmot MIP-02; PROTOCOL.md §5.6). If a better commit for the same epoch was already applied, the own commit
    /// lost: `superseded` is thrown and no Welcome is released.
    public mutating func confirmPublished(_ commit: CommitBundle, sealed: [UInt8], createdAt: Int64, eventID: [UInt8]) throws -> [LegacyWelcome] {
        guard isMember else { throw GroupError(.notAMember) }
        let order = CommitOrder(createdAt: createdAt, eventID: eventID)
        let digest = SHA256.hash(sealed)
        if commit.baseEpoch == state.epoch {
            // Same epoch number is not enough: a rollback may have replaced the branch it was built on.
            guard commit.baseContext == state.contextBytes else {
                throw GroupError(.superseded, "the commit was built on a branch that was rolled back")
            }
            remember(digest, epoch: commit.baseEpoch)
            push(Snapshot(before: state, order: order))
            state = commit.newState
            leaveRequests.removeAll { commit.removedIdentities.contains($0) }
            return commit.welcomes
        }
        guard let k = history.firstIndex(where: { $0.before.epoch == commit.baseEpoch }) else {
            throw GroupError(.epochTooOld, "commit base epoch \(commit.baseEpoch) not kept")
        }
        guard history[k].before.contextBytes == commit.baseContext else {
            throw GroupError(.superseded, "the commit was built on a branch that was rolled back")
        }
        guard order < history[k].order else { throw GroupError(.superseded, "a better commit for epoch \(commit.baseEpoch) was applied") }
        remember(digest, epoch: commit.baseEpoch)
        let before = history[k].before
        history.removeSubrange(k...)
        push(Snapshot(before: before, order: order))
        state = commit.newState
        return commit.welcomes
    }

    // MARK: receiving

    /// Processes a kind-445 content (already base64-decoded). Throws for this event only: replays,
    /// forged or non-admin or wrong-epoch commits, superseded commits. An event no kept key opens is
    /// buffered and `undecryptable` is thrown; it is retried after every epoch change, and the
    /// outcomes of retried events are appended to the returned list.
    public mutating func receive(_ sealed: [UInt8], createdAt: Int64, eventID: [UInt8]) throws -> [Outcome] {
        let digest = SHA256.hash(sealed)
        guard !wasSeen(digest) else { throw GroupError(.replay, "content seen before") }
        let order = CommitOrder(createdAt: createdAt, eventID: eventID)
        guard let (pt, epochState) = open(sealed) else {
            if pending.count >= GroupSession.pendingLimit { pending.removeFirst() }
            pending.append(Pending(sealed: sealed, order: order))
            if !isMember { throw GroupError(.notAMember, "removed from the group") }
            throw GroupError(.undecryptable, "no kept epoch key opens this event; kept for retry")
        }
        if let removal, !(pt.contentType == .commit && pt.epoch <= state.epoch && order < removal) {
            throw GroupError(.notAMember, "removed from the group")
        }
        var outcomes = try handle(pt, epochState: epochState, order: order, digest: digest)
        if outcomes.contains(where: { if case .application = $0 { return false }; if case .leaveRequest = $0 { return false }; return true }) {
            outcomes += retryPending()
        }
        return outcomes
    }

    /// The plaintext and the kept state whose key opened it.
    func open(_ sealed: [UInt8]) -> (GroupEventPlaintext, GroupState)? {
        if let pt = state.decrypt(sealed) { return (pt, state) }
        for snap in history.reversed() {
            if let pt = snap.before.decrypt(sealed) { return (pt, snap.before) }
        }
        return nil
    }

    mutating func handle(_ pt: GroupEventPlaintext, epochState: GroupState, order: CommitOrder, digest: [UInt8]) throws -> [Outcome] {
        guard pt.epoch == epochState.epoch else { throw GroupError(.wrongEpoch, "plaintext epoch \(pt.epoch) under key of \(epochState.epoch)") }
        switch pt.contentType {
        case .application:
            let sender = try epochState.authenticate(pt)
            remember(digest, epoch: pt.epoch)
            return [.application(sender: sender.identity, body: pt.body, epoch: pt.epoch)]
        case .proposal:
            let sender = try epochState.authenticate(pt)
            guard let p = try? LegacyProposal(tlsSerialized: pt.body), case .selfRemove(let id) = p, id == sender.identity else {
                throw GroupError(.invalidProposal, "only a member's own self_remove is accepted")
            }
            remember(digest, epoch: pt.epoch)
            guard epochState.epoch == state.epoch, !leaveRequests.contains(id) else { return [] }
            leaveRequests.append(id)
            return [.leaveRequest(identity: id)]
        case .commit:
            return try handleCommit(pt, order: order, digest: digest)
        }
    }

    mutating func handleCommit(_ pt: GroupEventPlaintext, order: CommitOrder, digest: [UInt8]) throws -> [Outcome] {
        if pt.epoch == state.epoch {
            if let removal, !(order < removal) { throw GroupError(.notAMember, "removed from the group") }
            let result = try state.processCommit(pt)
            remember(digest, epoch: pt.epoch)
            switch result {
            case .removed:
                removal = order
                return [.removed]
            case .applied(let next):
                let reinstated = removal != nil
                removal = nil
                push(Snapshot(before: state, order: order))
                state = next
                if reinstated { return [.rolledBack(toEpoch: pt.epoch, nowAt: next.epoch)] }
                leaveRequests.removeAll { id in !next.members.contains { $0.identity == id } }
                return [.commitApplied(epoch: next.epoch)]
            }
        }
        guard let k = history.firstIndex(where: { $0.before.epoch == pt.epoch }) else {
            throw GroupError(.epochTooOld, "commit for epoch \(pt.epoch) outside the kept window")
        }
        guard order < history[k].order else { throw GroupError(.superseded, "a better commit for epoch \(pt.epoch) was applied") }
        let before = history[k].before
        let result = try before.processCommit(pt)
        remember(digest, epoch: pt.epoch)
        history.removeSubrange(k...)
        switch result {
        case .removed:
            state = before
            removal = order
            return [.removed]
        case .applied(let next):
            removal = nil
            push(Snapshot(before: before, order: order))
            state = next
            return [.rolledBack(toEpoch: before.epoch, nowAt: next.epoch)]
        }
    }

    mutating func push(_ s: Snapshot) {
        history.append(s)
        if history.count > GroupSession.retainedEpochs { history.removeFirst(history.count - GroupSession.retainedEpochs) }
        let oldest = history.first?.before.epoch ?? state.epoch
        for e in seen.keys where e < oldest { seen[e] = nil }
    }

    mutating func remember(_ digest: [UInt8], epoch: UInt64) { seen[epoch, default: []].insert(digest) }

    func wasSeen(_ digest: [UInt8]) -> Bool { seen.values.contains { $0.contains(digest) } }

    /// Retries buffered events until none makes progress.
    mutating func retryPending() -> [Outcome] {
        var outcomes: [Outcome] = []
        var progress = true
        while progress {
            progress = false
            var i = 0
            while i < pending.count {
                let p = pending[i]
                guard let (pt, st) = open(p.sealed) else { i += 1; continue }
                pending.remove(at: i)
                let digest = SHA256.hash(p.sealed)
                if wasSeen(digest) { continue }
                if let removal, !(pt.contentType == .commit && pt.epoch <= state.epoch && p.order < removal) {
                    pending.insert(p, at: i); i += 1; continue
                }
                if let o = try? handle(pt, epochState: st, order: p.order, digest: digest) {
                    outcomes += o
                    if o.contains(where: { if case .commitApplied = $0 { return true }; if case .rolledBack = $0 { return true }; return false }) {
                        progress = true
                    }
                }
            }
        }
        return outcomes
    }

    // MARK: joining

    /// Joins from a Welcome, taking the private keys from `store`. The KeyPackage is retired only
    /// when the Welcome was processed successfully and it is not last-resort; a failed Welcome
    /// keeps it (issue 4, Key store).
    public static func join(welcome: LegacyWelcome, store: KeyPackageStore) throws -> GroupSession {
        guard let bundle = try store.bundle(reference: welcome.keyPackageRef) else {
            throw GroupError(.unknownKeyPackage, "no stored KeyPackage for this Welcome")
        }
        let state = try GroupState.join(welcome: welcome, bundle: bundle)
        try store.consume(reference: welcome.keyPackageRef)
        return GroupSession(state: state)
    }
}
