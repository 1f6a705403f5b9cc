import InviteKitCrypto

/// One ratchet tree's wire encoding (RFC 9420 §12.4.3.3), kept under its tree hash: the tree
/// hash covers every node's content and the tree's width (RFC 9420 §7.8), so two trees with the
/// same hash have the same encoding. The tree is public, so the bytes need no zeroizing.
final class TreeEncodingCache: Sendable {
    private let entry = LockedBox<(treeHash: [UInt8], bytes: [UInt8])?>(nil)

    /// `tree`'s encoding: the cached one when `tree` hashes as the cached tree did, else made and kept.
    func encoding(of tree: RatchetTree) -> [UInt8] {
        let hash = tree.treeHash
        if let hit = entry.withLock({ $0.flatMap { $0.treeHash == hash ? $0.bytes : nil } }) { return hit }
        var w = TLSWriter(capacity: 300 * tree.storage.count)
        tree.encode(to: &w)
        let bytes = w.bytes
        entry.withLock { $0 = (hash, bytes) }
        return bytes
    }
}
