import InviteKitCrypto
import InviteKitMLS
import InviteKitStore

extension InviteKitNode {
    /// The one way a group's engine state reaches the store (docs/storage.md §6): `groups.state`
    /// without the current ratchet tree, and the tree's chunks in `group_tree_chunks` that
    /// changed since the save this node last saw commit, so a message rewrites no chunk and a
    /// Commit those on its path. The entry forgets that save until ``stateCommitted(_:groupID:)``:
    /// a transaction that rolls back leaves the next save writing every chunk. The seen log's
    /// changes since its last committed save go to `group_seen` in the same transaction.
    ///
    /// A Commit that renamed the group or moved its relays (PROTOCOL §5.16) also rewrites the
    /// row's `name` and `relays`, which the node reads and routes by; the entry follows in
    /// ``stateCommitted(_:groupID:)``.
    func writeState(_ group: MarmotMLSGroup, groupID: String, in tx: StoreTransaction, now: Int64) throws {
        let saved = registry[groupID]?.savedTree
        registry[groupID]?.savedTree = nil
        registry[groupID]?.rowSync = nil
        try tx.groups.updateState(id: groupID, state: group.serializedWithoutTree(), epoch: group.epoch,
                                  engineVersion: MarmotMLSGroup.engineVersion, now: now)
        if let old = registry[groupID]?.group.groupData, old.name != group.groupData.name || Set(old.relays) != Set(group.groupData.relays) {
            let relays = Set(old.relays) != Set(group.groupData.relays) ? group.groupData.relays : (registry[groupID]?.relays ?? group.groupData.relays)
            try tx.groups.updateNameAndRelays(id: groupID, name: group.groupData.name, relays: relays, now: now)
            registry[groupID]?.rowSync = (group.groupData.name, relays)
        }
        try writeTree(of: group, groupID: groupID, since: saved, in: tx)
        try writeSeen(group.seenLog, groupID: groupID, in: tx)
    }

    /// A new group's row, every chunk of its tree and its seen log. A group this node was
    /// removed from and joins again starts over: the row is no longer removed, and the buffered
    /// events and seen values of the earlier membership go.
    func insertGroup(_ row: StoredGroup, group: MarmotMLSGroup, in tx: StoreTransaction) throws {
        registry[row.id]?.savedTree = nil
        try tx.groups.save(row)
        if registry[row.id] != nil {
            try tx.groups.clearRemoved(id: row.id)
            try tx.bufferedEvents.replace(groupID: row.id, ids: []) { _ in "" }
            try tx.groupSeen.write(groupID: row.id, prunedBelow: group.epoch + 1, evictedThrough: [:], added: [])
        }
        try writeTree(of: group, groupID: row.id, since: nil, in: tx)
        try writeSeen(group.seenLog, groupID: row.id, in: tx)
    }

    /// The seen log's rows by difference (docs/storage.md §6): an accepted event inserts its
    /// two values, a moved window deletes the epochs it left; nothing when the log is unchanged.
    private func writeSeen(_ log: MarmotSeenLog, groupID: String, in tx: StoreTransaction) throws {
        let changes = log.changes
        guard !changes.isEmpty else { return }
        try tx.groupSeen.write(groupID: groupID, prunedBelow: changes.prunedBelow, evictedThrough: changes.evictedThrough,
                               added: changes.added.map { StoredSeenValue(epoch: $0.epoch, kind: Int($0.kind.rawValue), value: $0.value, sequence: $0.sequence) })
    }

    private func writeTree(of group: MarmotMLSGroup, groupID: String, since saved: RatchetTree?, in tx: StoreTransaction) throws {
        let tree = group.state.tree
        try tx.treeChunks.write(groupID: groupID, changed: tree.storedChunks(changedSince: saved),
                                count: RatchetTree.storedChunkCount(nodeCount: tree.nodeCount))
    }

    /// The transaction that wrote `group` with ``writeState(_:groupID:in:now:)`` or
    /// ``insertGroup(_:group:in:)`` committed: the next save writes only what changes after it.
    /// Callers have put `group` in the registry first, so its seen log's changes are the ones saved.
    func stateCommitted(_ group: MarmotMLSGroup, groupID: String) {
        stateObserver?(groupID, group)
        registry[groupID]?.savedTree = group.state.tree
        registry[groupID]?.group.seenLog.markSaved()
        if let (name, relays) = registry[groupID]?.rowSync {
            registry[groupID]?.name = name
            registry[groupID]?.relays = relays
            registry[groupID]?.rowSync = nil
        }
    }

    /// A group's stored state: its row's `state` and, for a row whose tree is stored apart
    /// (engine version 3), the tree's chunks, and its seen log's rows. Also the tree as stored,
    /// for the next save. A state of version 4 or older brings its own seen entries instead,
    /// which its next save moves to `group_seen`.
    static func restoreGroup(_ row: StoredGroup, in tx: StoreTransaction) throws -> (group: MarmotMLSGroup, savedTree: RatchetTree?) {
        let restored = try MarmotMLSGroup.restore(engine: row.engine, version: row.engineVersion, state: row.state) {
            try tx.treeChunks.all(groupID: row.id)
        }
        var group = restored.group
        if group.seenLog.isEmpty {
            group.seenLog = try MarmotSeenLog(entries: try tx.groupSeen.all(groupID: row.id).map { v in
                guard (0...Int(UInt8.max)).contains(v.kind), let kind = MarmotSeenLog.Kind(rawValue: UInt8(v.kind)) else {
                    throw StoreError(.corrupt, "group \(row.id): seen value of kind \(v.kind)")
                }
                return MarmotSeenLog.Entry(epoch: v.epoch, kind: kind, value: v.value, sequence: v.sequence)
            })
        }
        return (group, restored.savedTree)
    }
}
