/// Keeping Commits small in large groups (PROTOCOL §5.11). A commit's UpdatePath encrypts to the
/// resolution of each copath node (RFC 9420 §7.6); in a tree just built by adds almost every parent
/// node is blank, so any path commit (self-update, remove, the admin's next add) encrypts to about
/// every leaf: ~82 bytes each, past 64 KiB from ~550 members. Only a member below a parent node can
/// give it a key (its path secret must stay within the subtree, and a non-blank parent must be
/// parent-hash valid from a leaf below it, RFC 9420 §7.9.2), so the admin cannot fill the tree for
/// everyone. The rule, within RFC 9420: the tree is cut into blocks of ``blockLeaves`` leaves; a
/// member who joins as the highest occupied leaf of its block while the block's root resolves to
/// more than one node (blank, or with unmerged leaves) makes one self-update right after joining. Then every node at the block
/// level and above has a key its subtree knows, and any path commit encrypts to at most
/// `blockLeaves - 1` leaves inside its own block plus about one node per level above.
package enum LargeGroupFill {
    /// 256 leaves: a commit then encrypts to at most ~270 nodes, ~30 KB as a kind-445 event.
    package static let blockLeaves: UInt32 = 256
    static let blockLevel: UInt32 = 8

    /// Whether the member at `leaf` should make a self-update now (see the type's rule). Groups of
    /// at most one block never need it.
    package static func shouldFill(tree: RatchetTree, leaf: UInt32) -> Bool {
        guard tree.leafCount > blockLeaves, tree.leaf(leaf) != nil else { return false }
        let start = leaf / blockLeaves * blockLeaves, end = min(start + blockLeaves, tree.leafCount)
        guard (start..<end).reversed().first(where: { tree.leaf($0) != nil }) == leaf else { return false }
        let x = TreeMath.nodeIndex(leaf: leaf)
        let blockRoot = (x & ~((UInt32(1) << (blockLevel + 1)) - 1)) | ((UInt32(1) << blockLevel) - 1)
        // One node (with no unmerged leaves) covers the block's members: nothing to fill. A blank
        // root above a half with no members resolves to that half's root, which is as good.
        return tree.resolution(of: blockRoot).count > 1
    }

    /// How many HPKE ciphertexts a path commit from `leaf` encrypts (the sum of its copath
    /// resolutions, RFC 9420 §7.6), before excluding leaves the commit adds.
    package static func pathCiphertexts(tree: RatchetTree, leaf: UInt32) -> Int {
        tree.filteredDirectPathWithCopath(leaf: leaf).reduce(0) { $0 + tree.resolution(of: $1.copathChild).count }
    }
}

extension MarmotGroup where Engine == MLSGroupState {
    /// After a join: `true` when this member should make a self-update now to keep the group's
    /// commits small (``LargeGroupFill``, PROTOCOL §5.11).
    package var shouldFillAfterJoin: Bool { LargeGroupFill.shouldFill(tree: state.tree, leaf: state.ownLeaf) }
}
