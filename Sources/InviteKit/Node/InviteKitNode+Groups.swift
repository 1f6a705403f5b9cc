import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr
import InviteKitStore

/// One member of a group as `group members` shows it.
public struct NodeGroupMember: Sendable, Hashable {
    /// The member's Nostr public key.
    public let publicKey: Secp256k1.XOnlyPublicKey
    public let isAdmin: Bool
}

extension InviteKitNode {
    /// A group's row by conversation id or Nostr group id.
    func groupRow(_ anyID: String) throws -> StoredGroup {
        guard let row = try store.read({ tx in try tx.groups.find(anyID) }) else { throw InviteKitError(.groupNotFound) }
        if let damage = damagedGroups[row.id] { throw damage }
        return row
    }

    /// The members of a group with their admin flag (MIP-01 group data), and its epoch.
    func members(groupID: String) throws -> (members: [NodeGroupMember], epoch: UInt64) {
        Self.members(of: try currentGroup(groupID))
    }

    static func members(of group: MarmotMLSGroup) -> (members: [NodeGroupMember], epoch: UInt64) {
        // Marmot credentials are the members' x-only keys (MIP-01): one that is not is not listed.
        (group.state.memberIdentities.compactMap { id in
            (try? Secp256k1.XOnlyPublicKey(rawRepresentation: id)).map { NodeGroupMember(publicKey: $0, isAdmin: group.groupData.isAdmin(id)) }
        }, group.epoch)
    }

    /// One kind-445 event of a group (MIP-03), decided once: an event already in the history (our
    /// own message or commit echoed by a relay, or one seen before a restart) is skipped by id
    /// before the engine sees it. What the engine changed commits in one transaction: the
    /// group's state (only when it changed), its buffered events (by difference, PROTOCOL §5.9),
    /// the messages, the processed mark. An event nobody can open costs the engine's checks and
    /// one failed AEAD open per retained epoch, and joins the in-memory buffer in place: no copy
    /// of the group, no write (the run loop saves changed buffers once per round, and reports
    /// their evictions then). A hosted group's Commit that undid adds of ours queues their
    /// re-add, and members' leave requests are committed, in that same transaction (one Commit
    /// in flight per group: while one waits, neither is built). A failed write leaves the
    /// group's state as it was and throws. Returns the first message stored, if any.
    @discardableResult
    func handleGroupEvent(_ event: NostrEvent) throws -> StoredMessage? {
        guard let groupID = groupID(taggedIn: event), registry[groupID]?.removed == false else { return nil }
        // Two single-row lookups by index: no snapshot needed, the node is the only writer.
        if try store.peek({ tx in try tx.messages.contains(eventID: event.id) || tx.processedRequests.contains(wrapID: event.id) }) { return nil }
        try loadBuffer(groupID: groupID)
        let now = currentTime()
        // The engine works on a copy of the group whose buffer the registry no longer shares, so
        // that an event that only joins the buffer appends in place; the registry keeps the rest
        // of the group as it was until the transaction below committed.
        var advanced = registry[groupID]!.group
        let membersBefore = Set(advanced.state.memberIdentities)
        let dataBefore = advanced.groupData
        registry[groupID]!.group.buffer = MarmotEventBuffer()
        let entry = registry[groupID]!
        let receipt: MarmotReceipt
        var commits: [NodePendingCommit] = []
        var stored: [StoredMessage] = []
        var refused: [(eventID: String, error: InviteKitError)] = []
        do {
            if let tag = entry.inviteTag {
                var hosted = HostedGroup(group: advanced, currentTag: tag, relays: entry.relays, name: entry.name)
                advanced.buffer = MarmotEventBuffer()
                defer { advanced = hosted.group }
                let result = try processor.receive(event, in: &hosted)
                receipt = result.receipt
                if !busyGroups.contains(groupID) {
                    if let readd = result.readds.first {
                        commits.append(.join(readd))
                    } else if receipt.outcomes.contains(where: { if case .leaveRequest = $0 { return true } else { return false } }), hosted.group.isAdmin {
                        commits.append(.change(groupID: groupID, commit: try hosted.group.commit(includeSelfRemoves: true, now: now, rng: randomSource)))
                    }
                }
            } else {
                receipt = advanced.ingest(event: event, now: now, budget: configuration.eventBudget)
            }
            if receipt.stateChanged || receipt.seenChanged || !commits.isEmpty {
                (stored, refused) = try saveGroupEvent(event, groupID: groupID, advanced: advanced, receipt: receipt, commits: commits,
                                                       relays: entry.relays, bufferDirty: entry.bufferDirty, now: now)
            }
        } catch {
            // The group stays where it was; the buffer keeps what the engine left in it (an event
            // a failed apply took out comes back from the relays), saved by a later round.
            registry[groupID]!.group.buffer = advanced.buffer
            registry[groupID]!.bufferDirty = true
            throw error
        }
        registry[groupID]!.group = advanced
        stateObserver?(groupID, advanced)
        if let joinedAt = entry.joinedAt, event.createdAt < joinedAt, case .buffered? = receipt.outcomes.first {
            registry[groupID]!.preJoinBuffered.insert(event.id)
        }
        var evicted = 0
        for case .evicted(let id) in receipt.outcomes {
            // History from before the join leaving the buffer is no loss to report.
            if registry[groupID]!.preJoinBuffered.remove(id) == nil { evicted += 1 }
        }
        registry[groupID]!.unreportedEvictions += evicted
        for (i, o) in receipt.outcomes.enumerated() {
            if let refusal = Self.refusalEvent(o, groupID: groupID, eventID: receipt.eventID(ofOutcomeAt: i, fallback: event.id)) { emit(refusal) }
        }
        guard receipt.stateChanged || receipt.seenChanged || !commits.isEmpty else {
            // Nothing but the buffer changed (an event no key opens yet, or junk): no write now.
            // It is saved with the group's next state, or by the run loop's next round; until then
            // a crash loses only events the relays send again (they are not marked processed).
            if receipt.bufferChanged { registry[groupID]!.bufferDirty = true }
            return nil
        }
        registry[groupID]!.bufferDirty = false
        if receipt.stateChanged || receipt.seenChanged { stateCommitted(advanced, groupID: groupID) }
        if receipt.outcomes.contains(where: { if case .removed = $0 { return true } else { return false } }) { registry[groupID]!.removed = true }
        for c in commits { pendingCommits[c.event.id] = c }
        for m in stored { emit(.messageReceived(m)) }
        for r in refused { emit(.eventRejected(eventID: r.eventID, error: r.error)) }
        reportEvictions(groupID: groupID)
        // A disband reports itself, not the removals it carries (group-lifecycle-v1.md).
        let disbanded = advanced.groupData.lifecycle == .disbanded
        for o in receipt.outcomes {
            switch o {
            case .commitApplied(_, let added, let removed):
                for a in added { if let key = Self.memberKey(hex: a) { emit(.memberAdded(groupID: groupID, member: key)) } }
                for r in removed where !disbanded { if let key = Self.memberKey(hex: r) { emit(.memberRemoved(groupID: groupID, member: key)) } }
            case .rolledBack(let fork, let epoch, _):
                // What the replaced branch announced is withdrawn: the new membership's
                // difference is reported, not the replaced commits' own changes.
                emit(.branchReplaced(groupID: groupID, forkEpoch: fork, epoch: epoch))
                let after = Set(advanced.state.memberIdentities)
                for a in after.subtracting(membersBefore).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                    if let key = Self.memberKey(bytes: a) { emit(.memberAdded(groupID: groupID, member: key)) }
                }
                for r in membersBefore.subtracting(after).sorted(by: { $0.lexicographicallyPrecedes($1) }) where r != publicKey.rawRepresentation {
                    if let key = Self.memberKey(bytes: r) { emit(.memberRemoved(groupID: groupID, member: key)) }
                }
            case .removed where !disbanded:
                emit(.memberRemoved(groupID: groupID, member: publicKey))
                emit(.removedFromGroup(groupID: groupID))
            default:
                break
            }
        }
        if receipt.stateChanged { for e in Self.groupDataEvents(groupID: groupID, from: dataBefore, to: advanced.groupData) { emit(e) } }
        return stored.first
    }

    /// A member identity as the engine reports it (hex or bytes of an x-only key, MIP-01).
    static func memberKey(hex: String) -> Secp256k1.XOnlyPublicKey? { Hex.decode(hex).flatMap(memberKey(bytes:)) }
    static func memberKey(bytes: [UInt8]) -> Secp256k1.XOnlyPublicKey? { try? Secp256k1.XOnlyPublicKey(rawRepresentation: bytes) }

    /// The group whose `h` tag (MIP-03) `event` carries, compared as bytes.
    func groupID(taggedIn event: NostrEvent) -> String? {
        // The one `h`-tag rule (PROTOCOL §5.4): exactly one, 64 hex characters.
        guard let bytes = try? MarmotGroupEvent.nostrGroupID(of: event) else { return nil }
        return registry.first(where: { $0.value.group.nostrGroupID == bytes })?.key
    }

    /// ``handleGroupEvent(_:)``'s one transaction: the engine's new state, the messages, the
    /// processed mark, queued Commits; synced to disk before anything is next published
    /// (`Store.Durability.deferred`). Returns the messages stored, and the app events refused:
    /// an edit or deletion of another account's message (PROTOCOL §5.15). A message past its
    /// retention is neither.
    private func saveGroupEvent(_ event: NostrEvent, groupID: String, advanced: MarmotMLSGroup, receipt: MarmotReceipt,
                                commits: [NodePendingCommit], relays: [String], bufferDirty: Bool,
                                now: Int64) throws -> (stored: [StoredMessage], refused: [(eventID: String, error: InviteKitError)]) {
        let outcomes = receipt.outcomes
        var stored: [StoredMessage] = []
        var refused: [(eventID: String, error: InviteKitError)] = []
        let waits: Bool = { if case .buffered? = outcomes.first { return true } else { return false } }()
        try store.write(durability: commits.isEmpty ? .deferred : .immediate) { tx in
            // The seen log's new rows go with the state (an accepted event changes both).
            if receipt.stateChanged || receipt.seenChanged { try writeState(advanced, groupID: groupID, in: tx, now: now) }
            if receipt.bufferChanged || bufferDirty { try saveBuffer(advanced.buffer, groupID: groupID, in: tx) }
            for (i, outcome) in outcomes.enumerated() {
                guard case .message(let inner, let epoch) = outcome else { continue }
                // A buffered event made readable is stored under its own kind-445 id.
                let eventID = receipt.eventID(ofOutcomeAt: i, fallback: inner.id)
                // PROTOCOL §5.15: a message past its retention is never stored.
                let expiresAt = MessageRetentionV1.expiry(createdAt: inner.createdAt, seconds: advanced.retentionSeconds(atEpoch: epoch))
                if let expiresAt, expiresAt <= now { continue }
                // Invite-link admin records (PROTOCOL §5.14.15) are control data, not history.
                if inner.kind == InviteLinkNostr.adminRecordKind {
                    do { try receiveInviteAdminBatch(inner, epoch: epoch, groupID: groupID, group: advanced, in: tx, now: now) } catch {
                        refused.append((eventID, InviteKitError.from(error)))
                    }
                    continue
                }
                let sender = Hex.decode(inner.pubkey) ?? []
                let relation = MessageRelation(kind: inner.kind, tags: inner.tags, content: inner.content)
                if let relation, relation.changesTarget {
                    do { try Self.checkTargets(of: relation, sender: sender, groupID: groupID, in: tx) } catch let e as InviteKitError {
                        refused.append((eventID, e))
                        continue
                    }
                }
                let m = StoredMessage(eventID: eventID, appEventID: inner.id, groupID: groupID, sender: sender, createdAt: inner.createdAt,
                                      kind: inner.kind, content: inner.content, tags: inner.tags, refersTo: relation?.target, expiresAt: expiresAt,
                                      outgoing: false, status: .received)
                guard try tx.messages.insert(m) else { continue }
                if case .deletion(let targets)? = relation {
                    for t in targets { try tx.messages.markDeleted(groupID: groupID, appEventID: t, at: now) }
                }
                if let back = try tx.messages.get(eventID: m.eventID) { stored.append(back) }
            }
            // A buffered event is not processed yet: it is decided when it opens, or again when a
            // relay sends it after a restart.
            if !waits {
                _ = try tx.processedRequests.record(ProcessedRequest(rumorID: event.id, wrapID: event.id, outcome: "group_event",
                                                                     groupID: groupID, processedAt: now))
            }
            for c in commits { try queue(c, requestID: nil, relays: relays, in: tx, now: now) }
            // A replaced branch takes its own Adds' held Welcomes with it (PROTOCOL §5.13, "Welcome hold").
            for case .rolledBack(let fork, _, _) in outcomes { try dropWelcomeHolds(groupID: groupID, from: fork, in: tx, now: now) }
            if outcomes.contains(where: { if case .removed = $0 { return true } else { return false } }) { try tx.groups.markRemoved(id: groupID, now: now) }
            tx.failPoint("node.group_event.before_commit")
        }
        return (stored, refused)
    }

    /// Reads the group's `buffered_events` into its engine's buffer, the first time one of its
    /// events arrives (``NodeGroupEntry/bufferLoaded``).
    func loadBuffer(groupID: String) throws {
        guard registry[groupID]?.bufferLoaded == false else { return }
        var buffer = MarmotEventBuffer()
        for json in try store.read({ tx in try tx.bufferedEvents.all(groupID: groupID) }) {
            if let e = try? NostrEvent(json: json) { buffer.append(e) }
        }
        registry[groupID]?.group.buffer = buffer
        registry[groupID]?.bufferLoaded = true
        // History from before the join stays known as such across a restart.
        if let joinedAt = registry[groupID]?.joinedAt {
            registry[groupID]?.preJoinBuffered = Set(buffer.events.filter { $0.createdAt < joinedAt }.map(\.id))
        }
    }

    /// Makes `buffered_events` hold `buffer` by difference: only events not stored yet are
    /// encoded to JSON.
    private func saveBuffer(_ buffer: MarmotEventBuffer, groupID: String, in tx: StoreTransaction) throws {
        let events = buffer.events
        try tx.bufferedEvents.replace(groupID: groupID, ids: events.map(\.id)) { events[$0].jsonString }
    }

    /// Writes every group's buffer that changed since it was last written, in one transaction,
    /// then reports the evictions since the last report (one event per group).
    func saveDirtyBuffers() throws {
        let dirty = registry.filter(\.value.bufferDirty).map { ($0.key, $0.value.group.buffer) }
        if !dirty.isEmpty {
            try store.write(durability: .deferred) { tx in
                for (id, buffer) in dirty { try saveBuffer(buffer, groupID: id, in: tx) }
            }
            for (id, _) in dirty { registry[id]?.bufferDirty = false }
        }
        for (id, entry) in registry where entry.unreportedEvictions > 0 { reportEvictions(groupID: id) }
    }

    private func reportEvictions(groupID: String) {
        guard let n = registry[groupID]?.unreportedEvictions, n > 0 else { return }
        registry[groupID]?.unreportedEvictions = 0
        emit(.bufferedEventsEvicted(groupID: groupID, count: n))
    }

    /// Sends `text` as a chat message (kind 9 inside a MIP-03 group event) to any group this
    /// node is in, hosted or joined: encrypted, stored as `pending` and queued in one
    /// transaction. ``run()`` publishes it; ``NodeEvent/messageDelivered(groupID:eventID:)``
    /// follows a relay's `OK`. Returns the message's event id.
    @discardableResult
    public func send(_ text: String, to groupID: String) throws(InviteKitError) -> String {
        try requireOpen()
        let message = try InviteKitError.mapping { try sendMessage(text: text, groupID: groupID) }
        wake()
        return message.eventID
    }

    func sendMessage(text: String, groupID anyID: String) throws -> StoredMessage {
        try sendMessage(EventTemplate(kind: MarmotProfile.chatMessageKind, content: text), relation: nil, groupID: anyID)
    }

    /// The one send of an app event (PROTOCOL §5.15): encrypted, stored as `pending` with its
    /// kind, tags and retention expiry, and queued in one transaction. A relation's targets are
    /// in the group's history; an edit's or deletion's are this member's own (`not_author`), and
    /// a deletion is applied to them in the same transaction, as is `alongside` (what the message
    /// records, e.g. who was sent an invite-link grant).
    func sendMessage(_ template: EventTemplate, relation: MessageRelation?, groupID anyID: String,
                     alongside: (StoreTransaction) throws -> Void = { _ in }) throws -> StoredMessage {
        let row = try groupRow(anyID)
        var group = try currentGroup(row.id)
        try Self.requireActive(row, group)
        if let relation { try checkTargets(of: relation, sender: publicKey.rawRepresentation, groupID: row.id) }
        let now = currentTime()
        var template = template
        template.createdAt = now
        let (event, rumor, expiresAt) = try group.sendApplication(template, now: now, rng: randomSource)
        var message = StoredMessage(eventID: event.id, appEventID: rumor.id, groupID: row.id, sender: publicKey.rawRepresentation, createdAt: now,
                                    kind: rumor.kind, content: rumor.content, tags: rumor.tags, refersTo: relation?.target, expiresAt: expiresAt,
                                    outgoing: true, status: .pending)
        try store.write { tx in
            try writeState(group, groupID: row.id, in: tx, now: now)
            _ = try tx.messages.insert(message)
            if case .deletion(let targets)? = relation {
                for t in targets { try tx.messages.markDeleted(groupID: row.id, appEventID: t, at: now) }
            }
            try enqueue(event, purpose: .message, relays: row.relays, in: tx, now: now)
            try alongside(tx)
            message = try tx.messages.get(eventID: event.id) ?? message
        }
        // Only after the commit: a failed write leaves the group's ratchet where it was.
        setGroup(group, groupID: row.id)
        stateCommitted(group, groupID: row.id)
        emit(.messageQueued(message))
        return message
    }

    /// Unused KeyPackages left; ``run()`` publishes more below the configured low water.
    func unusedKeyPackages() throws -> Int { try store.read { tx in try tx.keyPackages.countUnused() } }
}

extension InviteKitNode {
    /// Queues this member's leave request (a SelfRemove proposal) for the group's relays; an
    /// admin commits it. Returns the event id.
    public func leaveGroup(groupID: String) throws(InviteKitError) -> String {
        try requireOpen()
        let id = try InviteKitError.mapping { try queueLeave(groupID: groupID) }
        wake()
        return id
    }

    private func queueLeave(groupID: String) throws -> String {
        let row = try groupRow(groupID)
        guard var group = registry[row.id]?.group else { throw InviteKitError(.groupNotFound) }
        try Self.requireActive(row, group)
        // PROTOCOL §5.16: the last admin names a successor first; in the current profile any
        // admin gives up admin rights before leaving (admin-policy-v1.md); the invite host stays.
        if group.isAdmin, group.groupData.admins.count == 1 { throw InviteKitError(.lastAdmin, underlyingCode: "last_admin") }
        guard hostedGroup(row.id) == nil, !(group.isAdmin && group.profile == .current) else {
            throw InviteKitError(.notPermitted, underlyingCode: "admin_cannot_leave")
        }
        let event = try group.leaveEvent(now: currentTime(), rng: randomSource)
        let now = currentTime()
        try store.write { tx in
            try writeState(group, groupID: row.id, in: tx, now: now)
            try enqueue(event, purpose: .leave, relays: row.relays, in: tx, now: now)
        }
        setGroup(group, groupID: row.id)
        stateCommitted(group, groupID: row.id)
        return event.id
    }

}

extension InviteKitNode {
    /// ``members(of:)`` read from the stored engine state without the home's lock, for
    /// `group members` while `serve` runs.
    public static func storedMembers(home: StoreHome, group anyID: String) throws(InviteKitError) -> (members: [NodeGroupMember], epoch: UInt64) {
        try InviteKitError.mapping {
            let store = try Store.open(path: home.databasePath)
            guard let row = try store.read({ tx in try tx.groups.find(anyID) }) else { throw InviteKitError(.groupNotFound) }
            return members(of: try store.read { tx in try restoreGroup(row, in: tx) }.group)
        }
    }
}

extension InviteKitNode {
    /// Tops the unused KeyPackages up to ``keyPackageLowWater`` (MIP-00): each new one's private
    /// part and its kind-30443 event in `outbound` commit together, so none is published without
    /// its private part. Returns how many were made.
    @discardableResult
    func replenishKeyPackages() throws -> Int {
        let relays = try defaultRelays()
        guard !relays.isEmpty else { return 0 }
        let missing = configuration.keyPackageLowWater - (try unusedKeyPackages())
        guard missing > 0 else { return 0 }
        let now = currentTime()
        for _ in 0..<missing {
            try makeKeyPackage(relays: relays, now: now) { tx, event in try enqueue(event, purpose: .keyPackage, relays: relays, in: tx, now: now) }
        }
        return missing
    }

    /// A new KeyPackage of this node naming `relays`: its private part stored in the transaction
    /// that `alongside` writes to as well (its publication, when it has one). Returns the event.
    @discardableResult
    func makeKeyPackage(relays: [String], now: Int64,
                        alongside: (StoreTransaction, NostrEvent) throws -> Void = { _, _ in }) throws -> NostrEvent {
        let (event, bundle) = try KeyPackageEvent.create(nostrKey: signingKey, relays: relays, lastResort: false, now: now, rng: randomSource)
        try store.write { tx in
            try tx.keyPackages.save(reference: bundle.reference, eventID: event.id, bundle: bundle.privateSerialization(),
                                    lastResort: bundle.keyPackage.isLastResort, now: now)
            try alongside(tx, event)
        }
        return event
    }
}
