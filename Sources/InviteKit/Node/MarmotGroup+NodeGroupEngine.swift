import InviteKitCrypto
import InviteKitMLS

/// The node stores a group as ``MarmotGroup/serializedWithoutTree()`` (engine state, retained
/// epochs) with its current ratchet tree in chunks apart (`group_tree_chunks`) and its seen log
/// as rows (`group_seen`, docs/storage.md §6), so a group survives a restart and a save rewrites
/// what changed.
extension MarmotGroup: NodeGroupEngine where Engine == MLSGroupState {
    static var engineName: String { "marmot-mls" }
    /// 1 and 2: ``MarmotGroup/serialized()`` of that version, tree included; 3: the state without
    /// the tree, whose chunks are rows apart (the blob carries its own format byte, 2 or 3, which
    /// ``MarmotGroup/init(serialized:apartTree:)`` reads).
    package static var engineVersion: Int { 3 }
    func serializedState() -> SecureBytes? { serializedWithoutTree() }

    /// Reads a `groups.state` written by this engine, this format or an older one it reads;
    /// anything else is refused with a typed error. `treeChunks` is asked for the tree's chunks
    /// of a version-3 row only. Returns the tree as stored apart, `nil` for an older row.
    static func restore(engine: String, version: Int, state: SecureBytes,
                        treeChunks: () throws -> [[UInt8]]) throws -> (group: MarmotGroup, savedTree: RatchetTree?) {
        guard engine == engineName, version == engineVersion || readableSerializationVersions.contains(where: { Int($0) == version }) else {
            throw MLSError(.invalidValue, "stored group engine \(engine) v\(version) is not \(engineName) v\(engineVersion)")
        }
        guard version == engineVersion else { return (try MarmotGroup(serialized: state), nil) }
        let tree = try RatchetTree(storedChunks: try treeChunks())
        return (try MarmotGroup(serialized: state, apartTree: tree), tree)
    }
}
