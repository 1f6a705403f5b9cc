import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr
import InviteKitStore

/// One member of a group as `group members` shows it.
public struct NodeGroupMember: Sendable, Hashable {
    /// The x-only Nostr public key.
    public let publicKey: [UInt8]
    public let isAdmin: Bool
}

extension InviteKitNode {
    /// Every group this node hosts or joined, from the store (works while `serve` runs elsewhere).
    public func groupRows() throws -> [StoredGroup] { try store.read { tx in try tx.groups.all() } }

    /// A group's row by conversation id, Nostr group id, or a unique prefix of either.
    public func groupRow(_ anyID: String) throws -> StoredGroup {
        guard let row = try store.read({ tx in try tx.groups.find(anyID) }) else { throw StoreError(.notFound, "no group \(anyID)") }
        return row
    }

    /// The members of a group this node holds the engine state of, with their admin flag and the epoch.
    public func members(groupID: String) throws -> (members: [NodeGroupMember], epoch: UInt64) {
        if let hosted = hostedGroup(groupID) {
            return (hosted.session.state.members.map { NodeGroupMember(publicKey: $0.identity, isAdmin: $0.isAdmin) }, hosted.session.state.epoch)
        }
        if let session = memberSession(groupID) {
            return (session.state.members.map { NodeGroupMember(publicKey: $0.identity, isAdmin: $0.isAdmin) }, session.state.epoch)
        }
        throw StoreError(.notFound, "group \(groupID) has no engine state in this process (the engine does not persist groups yet)")
    }

    /// Nostr group ids (`h` tags) of every group this node can read, for the kind-445 subscription.
    public func subscribedGroupTags() throws -> [String] { try groupRows().map(\.nostrGroupID) }

    /// One kind-445 event of a group (MIP-03), decided once: an event already in the history (our
    /// own message or commit echoed by a relay, or one seen before a restart) is skipped by id
    /// before the engine sees it. A received message is stored in the same transaction as its
    /// processed mark. Returns the stored message, if the event carried one.
    @discardableResult
    public func handleGroupEvent(_ event: NostrEvent) throws -> StoredMessage? {
        if try store.read({ tx in try tx.messages.contains(eventID: event.id) || tx.processedRequests.contains(wrapID: event.id) }) { return nil }
        guard let hTag = event.tags.first(where: { $0.count >= 2 && $0[0] == "h" })?[1],
              let row = try store.read({ tx in try tx.groups.all().first { $0.nostrGroupID == hTag } }) else { return nil }
        let outcomes = try receiveInEngine(event, groupID: row.id)
        let now = currentTime()
        var stored: StoredMessage?
        try store.write { tx in
            for case .message(let inner, _) in outcomes {
                let m = StoredMessage(eventID: event.id, groupID: row.id, sender: Hex.decode(inner.pubkey) ?? [], createdAt: inner.createdAt,
                                      kind: inner.kind, content: inner.content, outgoing: false, status: .received)
                if try tx.messages.insert(m) { stored = m }
            }
            _ = try tx.processedRequests.record(ProcessedRequest(rumorID: event.id, wrapID: event.id, outcome: "group_event",
                                                                 groupID: row.id, processedAt: now))
        }
        if let stored { emit(.message(stored)) }
        return stored
    }

    /// The engine seam for inbound group events (the one place that names the current engine).
    private func receiveInEngine(_ event: NostrEvent, groupID: String) throws -> [GroupEventOutcome] {
        if var hosted = hostedGroup(groupID) {
            let outcomes = try hosted.session.receive(event: event)
            updateHosted(hosted)
            return outcomes
        }
        if var session = memberSession(groupID) {
            let outcomes = try session.receive(event: event)
            joinedSession(session, groupID: groupID)
            return outcomes
        }
        return []
    }

    /// Marks a message of ours acknowledged once a relay said `OK true` for its event.
    func messageAcknowledged(_ eventID: String) throws {
        try store.write { tx in
            if let m = try tx.messages.get(eventID: eventID), m.outgoing, m.status != .acked { try tx.messages.setStatus(eventID: eventID, .acked) }
        }
    }

    /// Sends `text` to any group this node can write to (hosted or joined).
    public func sendMessage(text: String, groupID: String) throws -> StoredMessage {
        if hostedGroup(groupID) != nil { return try send(text: text, groupID: groupID) }
        guard let session = memberSession(groupID), let row = try store.read({ tx in try tx.groups.get(id: groupID) }) else {
            throw StoreError(.notFound, "group \(groupID) has no engine state in this process (the engine does not persist groups yet)")
        }
        let now = currentTime()
        let event = try session.message(EventTemplate(kind: 9, content: text, createdAt: now), now: now, rng: randomSource)
        let message = StoredMessage(eventID: event.id, groupID: groupID, sender: publicKey.rawRepresentation, createdAt: now, kind: 9,
                                    content: text, outgoing: true, status: .pending)
        try store.write { tx in
            _ = try tx.messages.insert(message)
            try tx.outbound.enqueue(eventID: event.id, eventJSON: event.jsonString, kind: event.kind, purpose: "message",
                                    relays: row.relays, now: now)
        }
        emit(.message(message))
        return message
    }

    /// Unused KeyPackages left; `serve` publishes more below ``keyPackageLowWater``.
    public func unusedKeyPackages() throws -> Int { try store.read { tx in try tx.keyPackages.countUnused() } }

    /// `serve` keeps at least this many unused KeyPackages published.
    public static var keyPackageLowWater: Int { 3 }
}

extension InviteKitNode {
    /// Queues this member's leave request (a SelfRemove proposal) for the group's relays; an
    /// admin commits it. Returns the event id.
    public func leaveGroup(groupID: String) throws -> String {
        let row = try groupRow(groupID)
        let event: NostrEvent
        if let hosted = hostedGroup(row.id) { event = try hosted.session.leaveEvent(now: currentTime(), rng: randomSource) }
        else if let session = memberSession(row.id) { event = try session.leaveEvent(now: currentTime(), rng: randomSource) }
        else { throw StoreError(.notFound, "group \(groupID) has no engine state in this process (the engine does not persist groups yet)") }
        let now = currentTime()
        try store.write { tx in
            try tx.outbound.enqueue(eventID: event.id, eventJSON: event.jsonString, kind: event.kind, purpose: "leave", relays: row.relays, now: now)
        }
        return event.id
    }

    /// A commit removing `member` (admins only), published like a join's Commit: applied after a
    /// relay's `OK`. Needs the persisted engine (MarmotGroup), which is not wired in yet.
    public func removeMember(_ member: [UInt8], groupID: String) throws -> String {
        throw StoreError(.invalidTransition, "group remove needs the RFC 9420 engine in the node (MarmotGroup), not wired in yet")
    }

    /// A self-update commit. Needs the persisted engine (MarmotGroup), which is not wired in yet.
    public func selfUpdate(groupID: String) throws -> String {
        throw StoreError(.invalidTransition, "group update needs the RFC 9420 engine in the node (MarmotGroup), not wired in yet")
    }
}
