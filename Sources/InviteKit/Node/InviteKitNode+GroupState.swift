import InviteKitCrypto
import InviteKitMLS
import InviteKitStore

extension InviteKitNode {
    /// The one way a group's engine state reaches the store (docs/storage.md §6): `groups.state`
    /// without the current ratchet tree, and the tree's chunks in `group_tree_chunks` that
    /// changed since the save this node last saw commit, so a message rewrites no chunk and a
    /// Commit those on its path. The entry forgets that save until ``stateCommitted(_:groupID:)``:
    /// a transaction that rolls back leaves the next save writing every chunk.
    ///
    /// A Commit that renamed the group or moved its relays (PROTOCOL §5.15) also rewrites the
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
    }

    /// A new group's row and every chunk of its tree.
    func insertGroup(_ row: StoredGroup, group: MarmotMLSGroup, in tx: StoreTransaction) throws {
        registry[row.id]?.savedTree = nil
        try tx.groups.save(row)
        try writeTree(of: group, groupID: row.id, since: nil, in: tx)
    }

    private func writeTree(of group: MarmotMLSGroup, groupID: String, since saved: RatchetTree?, in tx: StoreTransaction) throws {
        let tree = group.state.tree
        try tx.treeChunks.write(groupID: groupID, changed: tree.storedChunks(changedSince: saved),
                                count: RatchetTree.storedChunkCount(nodeCount: tree.nodeCount))
    }

    /// The transaction that wrote `group` with ``writeState(_:groupID:in:now:)`` or
    /// ``insertGroup(_:group:in:)`` committed: the next save writes only what changes after it.
    func stateCommitted(_ group: MarmotMLSGroup, groupID: String) {
        registry[groupID]?.savedTree = group.state.tree
        if let (name, relays) = registry[groupID]?.rowSync {
            registry[groupID]?.name = name
            registry[groupID]?.relays = relays
            registry[groupID]?.rowSync = nil
        }
    }

    /// A group's stored state: its row's `state` and, for a row whose tree is stored apart
    /// (engine version 3), the tree's chunks. Also the tree as stored, for the next save.
    static func restoreGroup(_ row: StoredGroup, in tx: StoreTransaction) throws -> (group: MarmotMLSGroup, savedTree: RatchetTree?) {
        try MarmotMLSGroup.restore(engine: row.engine, version: row.engineVersion, state: row.state) { try tx.treeChunks.all(groupID: row.id) }
    }
}
