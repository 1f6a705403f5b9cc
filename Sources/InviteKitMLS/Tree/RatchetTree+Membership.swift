/// Adding, replacing and removing leaves (RFC 9420 §7.7, §12.1.1–§12.1.3).
extension RatchetTree {
    /// Places `leafNode` in the leftmost blank leaf, extending the tree when there is none, and
    /// records it in the unmerged leaves of every non-blank parent on its direct path
    /// (RFC 9420 §12.1.1). Returns the new leaf index.
    @discardableResult
    package mutating func addLeaf(_ leafNode: LeafNode) -> UInt32 {
        let index: UInt32
        if let blank = (0..<leafCount).first(where: { self[node: TreeMath.nodeIndex(leaf: $0)] == nil }) {
            index = blank
        } else {
            index = leafCount
            extend()
        }
        write(Int(TreeMath.nodeIndex(leaf: index)), .leaf(leafNode))
        for p in directPath(leaf: index) {
            guard var parent = self[node: p]?.parentNode else { continue }
            // Leaf indices stay ascending because `unmerged_leaves` is compared as a list in hashes.
            let at = parent.unmergedLeaves.firstIndex { $0 > index } ?? parent.unmergedLeaves.count
            parent.unmergedLeaves.insert(index, at: at)
            write(Int(p), .parent(parent))
        }
        rehashPath(from: TreeMath.nodeIndex(leaf: index))
        return index
    }

    /// Replaces the leaf of a member that sent an Update and blanks its direct path
    /// (RFC 9420 §12.1.2).
    package mutating func updateLeaf(_ leaf: UInt32, with leafNode: LeafNode) throws {
        guard self.leaf(leaf) != nil else { throw MLSError(.invalidTree, "leaf \(leaf) is blank or out of range") }
        write(Int(TreeMath.nodeIndex(leaf: leaf)), .leaf(leafNode))
        blankDirectPath(leaf: leaf)
    }

    /// Blanks a leaf and its direct path, then truncates (RFC 9420 §12.1.3).
    package mutating func removeLeaf(_ leaf: UInt32) throws {
        guard self.leaf(leaf) != nil else { throw MLSError(.invalidTree, "leaf \(leaf) is blank or out of range") }
        write(Int(TreeMath.nodeIndex(leaf: leaf)), nil)
        blankDirectPath(leaf: leaf)
        truncate()
    }

    mutating func blankDirectPath(leaf: UInt32) {
        for p in directPath(leaf: leaf) { write(Int(p), nil) }
        rehashPath(from: TreeMath.nodeIndex(leaf: leaf))
    }

    /// Drops the right half of the tree while it holds no non-blank node (RFC 9420 §7.7).
    mutating func truncate() {
        while leafCount > 1 {
            guard isBlankSubtree(TreeMath.right(root)) else { return }
            dropRightHalf()
        }
    }
}
