/// A tree stored as its differences from another one (PROTOCOL.md §5.10): the retained epochs
/// and rollback snapshots of a group differ from its current tree by a few paths, so a stored
/// state holds one full tree and small deltas instead of many full trees.
///
/// `uint32 node_count; struct { uint32 index; optional<Node> node; } changes<V>;` with indices
/// ascending, each `< node_count`. The tree is `base`'s nodes cut or padded with blanks to
/// `node_count`, with `changes` written over them.
extension RatchetTree {
    func encodeDelta(from base: RatchetTree, to writer: inout TLSWriter) {
        writer.writeUInt32(UInt32(storage.count))
        writer.writeVector { w in
            var i = 0
            while i < storage.count {
                if i & (ChunkedArray<Node?>.chunkSize - 1) == 0, storage.sharesChunk(i >> ChunkedArray<Node?>.chunkShift, with: base.storage) {
                    i += ChunkedArray<Node?>.chunkSize
                    continue
                }
                defer { i += 1 }
                let mine = storage[i]
                let theirs = i < base.storage.count ? base.storage[i] : nil
                if mine == theirs { continue }  // a shared box compares by identity first
                w.writeUInt32(UInt32(i))
                Node.encodeOptional(mine, to: &w)
            }
        }
    }

    /// Reads ``encodeDelta(from:to:)``. The result shares `base`'s unchanged nodes and, when the
    /// width is the same, its tree hashes: only the changed nodes' paths are rehashed. Fails with
    /// a typed error on a width that is not a full tree, unordered or out-of-range indices, and
    /// a node of the wrong type for its position.
    init(delta reader: inout TLSReader, base: RatchetTree) throws {
        let count = Int(try reader.readUInt32())
        guard count >= 1, count <= 1 << 31 - 1, (count + 1) & count == 0 else { throw MLSError(.invalidTree, "delta tree width \(count)") }
        var previous = -1
        let changes: [(Int, Node?)] = try reader.readVector { sub in
            let i = Int(try sub.readUInt32())
            guard i < count, i > previous else { throw MLSError(.invalidTree, "delta node index \(i)") }
            previous = i
            let node = try Node.readOptional(from: &sub)
            if let node, node.isLeaf != (i % 2 == 0) { throw MLSError(.invalidTree, "delta node \(i) of the wrong type") }
            return (i, node)
        }
        self = base
        guard base.storage.count == count else {
            var nodes = Array(base.storage)
            if nodes.count > count { nodes.removeLast(nodes.count - count) } else { nodes += Array(repeating: nil, count: count - nodes.count) }
            for (i, n) in changes { nodes[i] = n }
            self.nodes = nodes
            return
        }
        for (i, n) in changes { write(i, n) }
        // Every changed node and its ancestors, lowest level first, so each node is hashed after
        // its children.
        var dirty = Set<UInt32>()
        for (i, _) in changes {
            var x = UInt32(i)
            while dirty.insert(x).inserted, x != root { x = TreeMath.parent(x) }
        }
        for x in dirty.sorted(by: { TreeMath.level($0) < TreeMath.level($1) }) {
            hashes[Int(x)] = TreeMath.isLeaf(x) ? nodeHash(x, left: .zero, right: .zero)
                : nodeHash(x, left: hashes[Int(TreeMath.left(x))], right: hashes[Int(TreeMath.right(x))])
        }
    }
}
