import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr
import InviteKitStore

/// App events of every kind, and what points at a message: reactions, replies, edits and
/// deletions (PROTOCOL §5.15). Each is one ``sendMessage(_:relation:groupID:)``: stored with its
/// kind and tags, queued, announced as ``NodeEvent/messageQueued(_:)``; ``run()`` publishes it.
extension InviteKitNode {
    /// Sends an app event of any `kind` with `tags` (`foundation/application-messages.md`: the
    /// kind is not an allow-list), kept in the history as sent. Retention is group state: an
    /// inner `expiration` tag is dropped (PROTOCOL §5.15). Returns the stored message; its
    /// `StoredMessage.eventID` is the one ``waitForDelivery(of:timeout:)`` takes.
    @discardableResult
    public func send(kind: Int, content: String, tags: [[String]] = [], to groupID: String) throws(InviteKitError) -> StoredMessage {
        try sendApp(to: groupID) { _ in (EventTemplate(kind: kind, content: content, tags: tags), MessageRelation(kind: kind, tags: tags, content: content)) }
    }

    /// Reacts to a message (NIP-25: kind 7, an `e` tag, the emoji as content). `messageID` is
    /// either of its ids (`StoredMessage.eventID`, `StoredMessage.appEventID`) or a unique
    /// prefix of its app event id of at least 8 characters.
    @discardableResult
    public func react(_ emoji: String, to messageID: String, in groupID: String) throws(InviteKitError) -> StoredMessage {
        try sendRelation(to: groupID, target: messageID) { .reaction(to: $0, emoji: emoji) }
    }

    /// Answers a message: a kind-9 message with an `e` and a `q` tag naming it.
    @discardableResult
    public func reply(_ text: String, to messageID: String, in groupID: String) throws(InviteKitError) -> StoredMessage {
        try sendRelation(to: groupID, target: messageID) { .reply(to: $0, text: text) }
    }

    /// Replaces the body of an own message (kind 1009, one `e` tag). Another member's message is
    /// refused with `not_permitted` (`not_author`), as every member refuses such an edit.
    @discardableResult
    public func edit(_ messageID: String, newText: String, in groupID: String) throws(InviteKitError) -> StoredMessage {
        try sendRelation(to: groupID, target: messageID) { .edit(of: $0, text: newText) }
    }

    /// Deletes an own message (NIP-09: kind 5, an `e` tag): its content goes from this home now
    /// and from every member's when the deletion arrives. Another member's message is refused
    /// with `not_permitted` (`not_author`).
    @discardableResult
    public func delete(_ messageID: String, in groupID: String) throws(InviteKitError) -> StoredMessage {
        try sendRelation(to: groupID, target: messageID) { .deletion(of: [$0]) }
    }

    private func sendRelation(to groupID: String, target messageID: String,
                              _ relation: @escaping (String) -> MessageRelation) throws(InviteKitError) -> StoredMessage {
        try sendApp(to: groupID) { row throws in
            let target = try self.resolveMessage(messageID, groupID: row.id)
            guard let id = target.appEventID else { throw InviteKitError(.notFound, underlyingCode: "message_not_found") }
            let r = relation(id)
            return (try r.template(createdAt: 0), r)
        }
    }

    private func sendApp(to groupID: String,
                         _ build: (StoredGroup) throws -> (EventTemplate, MessageRelation?)) throws(InviteKitError) -> StoredMessage {
        try requireOpen()
        let message = try InviteKitError.mapping {
            let row = try groupRow(groupID)
            let (template, relation) = try build(row)
            prepareConnections(to: row.relays)
            return try sendMessage(template, relation: relation, groupID: row.id)
        }
        wake()
        return message
    }

    /// A message of a group by event id, app event id, or a unique app-event-id prefix of at
    /// least 8 characters (a leading `#`, as `group read` prints it, is ignored); `not_found`
    /// (`message_not_found`) otherwise, and for a deleted message.
    func resolveMessage(_ messageID: String, groupID: String) throws -> StoredMessage {
        var id = messageID.lowercased()
        if id.hasPrefix("#") { id.removeFirst() }
        let found: StoredMessage? = try store.read { tx in
            if let m = try tx.messages.get(eventID: id), m.groupID == groupID { return m }
            if let m = try tx.messages.find(groupID: groupID, appEventID: id) { return m }
            guard id.count >= 8 else { return nil }
            let candidates = try tx.messages.find(groupID: groupID, appEventIDPrefix: id)
            return candidates.count == 1 ? candidates[0] : nil
        }
        guard let found, found.deletedAt == nil else { throw InviteKitError(.notFound, underlyingCode: "message_not_found") }
        return found
    }

    /// PROTOCOL §5.15 on send: an edit's or deletion's targets are in the history and this
    /// member's own.
    func checkTargets(of relation: MessageRelation, sender: [UInt8], groupID: String) throws {
        guard relation.changesTarget else { return }
        try store.read { tx in
            for t in relation.targets where try tx.messages.find(groupID: groupID, appEventID: t) == nil {
                throw InviteKitError(.notFound, underlyingCode: "message_not_found")
            }
            try Self.checkTargets(of: relation, sender: sender, groupID: groupID, in: tx)
        }
    }

    /// The authorship rule on a relation's targets the history holds (PROTOCOL §5.15;
    /// ``MessageRelation/mayChange(target:by:)``): `not_permitted` (`not_author`) for an edit or
    /// deletion of another account's message. A target not held is not judged here: an edit is
    /// judged again when a timeline folds it, a deletion is applied to held targets only.
    static func checkTargets(of relation: MessageRelation, sender: [UInt8], groupID: String, in tx: StoreTransaction) throws {
        guard relation.changesTarget else { return }
        for t in relation.targets {
            if let target = try tx.messages.find(groupID: groupID, appEventID: t), !MessageRelation.mayChange(target: target.sender, by: sender) {
                throw InviteKitError(.notPermitted, underlyingCode: "not_author")
            }
        }
    }

    /// A page of a group's conversation in order: the messages of ``history(of:after:before:limit:)``
    /// but reactions, edits and deletions, each with what points at it folded in
    /// (``TimelineMessage/fold(_:related:)``). `after` is the last row's ``TimelineMessage/message``.
    public func timeline(of groupID: String, after: StoredMessage? = nil, limit: Int = 500) throws(InviteKitError) -> [TimelineMessage] {
        try requireOpen()
        let now = currentTime()
        return try InviteKitError.mapping {
            let id = try groupRow(groupID).id
            return try store.read { tx in try Self.timeline(groupID: id, after: after, limit: limit, now: now, in: tx) }
        }
    }

    /// ``timeline(of:after:limit:)``'s one read, also ``NodeHome``'s.
    static func timeline(groupID: String, after: StoredMessage?, limit: Int, now: Int64, in tx: StoreTransaction) throws -> [TimelineMessage] {
        let rows = try tx.messages.history(groupID: groupID, after: after.map { ($0.createdAt, $0.sequence) }, limit: max(0, min(limit, 10_000)),
                                           visibleAt: now, excludingKinds: MessageRelation.annotationKinds)
        let related = try tx.messages.referring(groupID: groupID, to: rows.compactMap(\.appEventID), visibleAt: now)
        return TimelineMessage.fold(rows, related: related)
    }
}

/// Disappearing messages (PROTOCOL §5.15; `app-components/message-retention-v1.md`).
extension InviteKitNode {
    /// Sets the group's message retention (component `0x8005`) with a Commit: messages sent from
    /// the next epoch on expire `seconds` after they were written (0 turns it off). Admins only,
    /// current profile only (`not_permitted`: `not_admin`, `needs_current_profile`); every member
    /// refuses the Commit from a non-admin. Applied after a relay's `OK`; queues behind a
    /// Commit in flight as ``selfUpdate(groupID:)`` does. Returns the Commit's event id.
    public func setMessageRetention(_ seconds: UInt64, groupID: String) async throws(InviteKitError) -> String {
        try requireOpen()
        _ = try InviteKitError.mapping { try retentionChange(seconds, groupID: groupID) }
        try await awaitCommitSlot(groupID)
        let id = try InviteKitError.mapping {
            let (row, group, data) = try retentionChange(seconds, groupID: groupID)
            try requireNoCommitInFlight(row.id)
            let commit = try group.commit(groupData: data, now: currentTime(), rng: randomSource)
            return try submit(.change(groupID: row.id, commit: commit), relays: row.relays)
        }
        wake()
        return id
    }

    /// A group's message retention in seconds; `nil` when the group never set one.
    public func messageRetention(of groupID: String) throws(InviteKitError) -> UInt64? {
        try requireOpen()
        return try InviteKitError.mapping { try currentGroup(try groupRow(groupID).id).groupData.retentionSeconds }
    }

    private func retentionChange(_ seconds: UInt64, groupID: String) throws -> (StoredGroup, MarmotMLSGroup, MarmotGroupData) {
        let row = try groupRow(groupID)
        let group = try currentGroup(row.id)
        try Self.requireActive(row, group)
        guard group.profile == .current else { throw InviteKitError(.notPermitted, underlyingCode: "needs_current_profile") }
        guard group.isAdmin else { throw InviteKitError(.notPermitted, underlyingCode: "not_admin") }
        var data = group.groupData
        data.retentionSeconds = seconds
        return (row, group, data)
    }

    /// Removes the messages whose retention ended (PROTOCOL §5.15), when the earliest expiry is
    /// due: one indexed look otherwise. ``run()`` calls it every round; reads leave expired
    /// messages out meanwhile, so none shows again.
    func removeExpiredMessages() throws {
        let now = currentTime()
        guard let due = try store.peek({ tx in try tx.messages.earliestExpiry() }), due <= now else { return }
        let removed = try store.write(durability: .deferred) { tx in try tx.messages.deleteExpired(now: now) }
        for (groupID, count) in removed.sorted(by: { $0.key < $1.key }) { emit(.messagesExpired(groupID: groupID, count: count)) }
    }
}
