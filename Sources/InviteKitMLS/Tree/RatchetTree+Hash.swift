import InviteKitCrypto

/// Tree hashes (RFC 9420 §7.8) and parent hashes (RFC 9420 §7.9). Both supported suites hash
/// with SHA-256.
extension RatchetTree {
    /// The tree hash of the root: the `tree_hash` of the GroupContext (RFC 9420 §7.8).
    package var treeHash: [UInt8] { hashes[Int(root)].bytes }

    /// The tree hash of every node, by node index (RFC 9420 §7.8).
    package func treeHashes() -> [[UInt8]] { hashes.map(\.bytes) }

    /// Every tree hash, recomputed from the nodes (for tests of the kept ones).
    package func computeTreeHashes() -> [[UInt8]] { computeHashes().map(\.bytes) }

    func computeHashes() -> ChunkedArray<NodeHash> {
        var out = ChunkedArray<NodeHash>(repeating: .zero, count: storage.count)
        fillTreeHash(root, into: &out)
        return out
    }

    func fillTreeHash(_ x: UInt32, into out: inout ChunkedArray<NodeHash>) {
        if !TreeMath.isLeaf(x) {
            fillTreeHash(TreeMath.left(x), into: &out)
            fillTreeHash(TreeMath.right(x), into: &out)
        }
        out[Int(x)] = nodeHash(x, children: out)
    }

    /// The tree hash of node `x`, given its children's in `children` for a parent node.
    func nodeHash(_ x: UInt32, children: ChunkedArray<NodeHash>) -> NodeHash {
        if TreeMath.isLeaf(x) { return leafHash(x, present: true) }
        return parentHashInputHash(parentNode(x), left: children[Int(TreeMath.left(x))], right: children[Int(TreeMath.right(x))])
    }

    /// The tree hash of node `x` given its children's (ignored for a leaf).
    func nodeHash(_ x: UInt32, left: NodeHash, right: NodeHash) -> NodeHash {
        if TreeMath.isLeaf(x) { return leafHash(x, present: true) }
        return parentHashInputHash(parentNode(x), left: left, right: right)
    }

    /// `TreeHashInput` for a leaf; `present: false` hashes it as blank.
    private func leafHash(_ x: UInt32, present: Bool) -> NodeHash {
        var w = TLSWriter()
        w.writeUInt8(Node.NodeType.leaf.rawValue)
        w.writeUInt32(TreeMath.leafIndex(node: x))
        if present, let l = self[node: x]?.leafNode { w.writeUInt8(1); l.encode(to: &w) } else { w.writeUInt8(0) }
        return NodeHash(SHA256.hash(w.bytes))
    }

    /// `TreeHashInput` for a parent node.
    private func parentHashInputHash(_ p: ParentNode?, left: NodeHash, right: NodeHash) -> NodeHash {
        var w = TLSWriter()
        w.writeUInt8(Node.NodeType.parent.rawValue)
        if let p { w.writeUInt8(1); p.encode(to: &w) } else { w.writeUInt8(0) }
        left.writeOpaque(to: &w)
        right.writeOpaque(to: &w)
        return NodeHash(SHA256.hash(w.bytes))
    }

    /// The tree hash of `x` in the tree where the leaves in `excluded` are blank and dropped from
    /// every `unmerged_leaves` list: the "original sibling tree hash" of RFC 9420 §7.9.
    /// `cache` holds the plain tree hashes, reused for subtrees that hold no excluded leaf.
    func treeHash(of x: UInt32, excluding excluded: [UInt32], cache: ChunkedArray<NodeHash>) -> NodeHash {
        let inside = excluded.filter { TreeMath.contains(x, leaf: $0) }
        if inside.isEmpty { return cache[Int(x)] }
        if TreeMath.isLeaf(x) { return leafHash(x, present: false) }
        let l = treeHash(of: TreeMath.left(x), excluding: inside, cache: cache)
        let r = treeHash(of: TreeMath.right(x), excluding: inside, cache: cache)
        var p = parentNode(x)
        p?.unmergedLeaves.removeAll { inside.contains($0) }
        return parentHashInputHash(p, left: l, right: r)
    }

    /// `Hash(ParentHashInput)` (RFC 9420 §7.9) of parent node `p` seen from its child on the
    /// direct path, given the original tree hash of its other child.
    static func parentHash(of p: ParentNode, originalSiblingTreeHash: NodeHash) -> [UInt8] {
        var w = TLSWriter()
        w.writeOpaque(p.encryptionKey)
        w.writeOpaque(p.parentHash)
        originalSiblingTreeHash.writeOpaque(to: &w)
        return SHA256.hash(w.bytes)
    }

    /// The parent hash a child of parent `p` on the side of `child` must carry, in this tree
    /// (RFC 9420 §7.9).
    func parentHash(of p: UInt32, towards child: UInt32, cache: ChunkedArray<NodeHash>) -> [UInt8]? {
        guard let node = parentNode(p) else { return nil }
        let sibling = child == TreeMath.left(p) ? TreeMath.right(p) : TreeMath.left(p)
        let siblingHash = treeHash(of: sibling, excluding: node.unmergedLeaves, cache: cache)
        return Self.parentHash(of: node, originalSiblingTreeHash: siblingHash)
    }

    /// The `parent_hash` field of node `x`: a parent node's field, a `commit` leaf's field,
    /// otherwise `nil`.
    func parentHashField(_ x: UInt32) -> [UInt8]? {
        switch self[node: x]?.kind {
        case .parent(let p)?: return p.parentHash
        case .leaf(let l)?: if case .commit(let ph) = l.source { return ph }; return nil
        case nil: return nil
        }
    }

    /// Checks that every non-blank parent node is parent-hash valid (RFC 9420 §7.9.2), top down:
    /// exactly one descendant of each such node must carry its parent hash, and that descendant
    /// must be the only node of its child's resolution besides the node's unmerged leaves.
    package func verifyParentHashes() throws {
        let cache = hashes
        for i in stride(from: UInt32(1), to: UInt32(storage.count), by: 2) {
            guard let p = parentNode(i) else { continue }
            var valid = 0
            for (c, s) in [(TreeMath.left(i), TreeMath.right(i)), (TreeMath.right(i), TreeMath.left(i))] {
                let unmergedHere = Set(p.unmergedLeaves.filter { TreeMath.contains(c, leaf: $0) }.map { TreeMath.nodeIndex(leaf: $0) })
                let res = resolution(of: c)
                guard unmergedHere.isSubset(of: res) else { continue }
                let rest = res.filter { !unmergedHere.contains($0) }
                guard rest.count == 1, let field = parentHashField(rest[0]) else { continue }
                let siblingHash = treeHash(of: s, excluding: p.unmergedLeaves, cache: cache)
                if field == Self.parentHash(of: p, originalSiblingTreeHash: siblingHash) { valid += 1 }
            }
            guard valid == 1 else { throw MLSError(.parentHashMismatch, "parent node \(i) is not parent-hash valid") }
        }
    }
}

extension RatchetTree {
    /// Blanks the direct path of `sender`, sets the nodes of its filtered direct path `path` to
    /// `publicKeys` with empty unmerged leaves and chained parent hashes (RFC 9420 §7.5, §7.9),
    /// and returns the parent hash the sender's new leaf must carry. A `leaf` known in advance
    /// (a received path's) is set too, so that the path is rehashed once.
    mutating func applyPath(sender: UInt32, path: [(node: UInt32, copathChild: UInt32)], publicKeys: [[UInt8]],
                            leaf: LeafNode? = nil) -> [UInt8] {
        precondition(path.count == publicKeys.count)
        for x in directPath(leaf: sender) { write(Int(x), nil) }
        let set = pathNodes(path: path, publicKeys: publicKeys)
        for (k, step) in set.enumerated() { write(Int(path[k].node), .parent(step.node)) }
        if let leaf { write(Int(TreeMath.nodeIndex(leaf: sender)), .leaf(leaf)) }
        rehashPath(from: TreeMath.nodeIndex(leaf: sender))
        return set.first?.hash ?? []
    }

    /// The parent nodes ``applyPath(sender:path:publicKeys:)`` would set, each with the parent
    /// hash its child on the path must carry (`hash`), without changing the tree. Copath subtrees
    /// are disjoint from the direct path, so their current hashes are the original sibling tree
    /// hashes (RFC 9420 §7.9).
    func pathNodes(path: [(node: UInt32, copathChild: UInt32)], publicKeys: [[UInt8]]) -> [(node: ParentNode, hash: [UInt8])] {
        var out = [(node: ParentNode, hash: [UInt8])](repeating: (ParentNode(encryptionKey: [], parentHash: [], unmergedLeaves: []), []),
                                                      count: path.count)
        var above: [UInt8] = []
        for k in stride(from: path.count - 1, through: 0, by: -1) {
            let node = ParentNode(encryptionKey: publicKeys[k], parentHash: above, unmergedLeaves: [])
            above = Self.parentHash(of: node, originalSiblingTreeHash: hashes[Int(path[k].copathChild)])
            out[k] = (node, above)
        }
        return out
    }
}
