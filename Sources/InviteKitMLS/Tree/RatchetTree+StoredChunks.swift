/// A tree stored in fixed runs of nodes (docs/storage.md §6 `group_tree_chunks`), so that a save
/// rewrites only the runs that changed: a commit changes O(log N) nodes, a message none.
///
/// Chunk `k` holds nodes `k * storedChunkNodes ..< min((k + 1) * storedChunkNodes, node_count)`
/// as `optional<Node> nodes<V>` (RFC 9420 §12.4.3.3's node encoding, blanks kept).
extension RatchetTree {
    /// Nodes per stored chunk: the in-memory chunk size, so a chunk no write touched since the
    /// last save is the very buffer that was saved.
    package static var storedChunkNodes: Int { ChunkedArray<Node?>.chunkSize }

    /// The number of stored chunks of a tree of `nodeCount` nodes.
    package static func storedChunkCount(nodeCount: Int) -> Int {
        (nodeCount + storedChunkNodes - 1) / storedChunkNodes
    }

    /// Every node, blank or not, including the trailing blanks that the wire form drops.
    package var nodeCount: Int { storage.count }

    /// The encodings of the chunks that may differ from `saved` (the tree as last written), by
    /// chunk index; every chunk when `saved` is `nil`. A chunk that is the same buffer in both
    /// trees is equal and left out.
    package func storedChunks(changedSince saved: RatchetTree?) -> [(index: Int, bytes: [UInt8])] {
        var out: [(Int, [UInt8])] = []
        for k in 0..<Self.storedChunkCount(nodeCount: storage.count) {
            if let saved, storage.sharesChunk(k, with: saved.storage) { continue }
            var w = TLSWriter(capacity: 300 * Self.storedChunkNodes)
            w.writeVector { v in
                for i in k * Self.storedChunkNodes..<min((k + 1) * Self.storedChunkNodes, storage.count) {
                    Node.encodeOptional(storage[i], to: &v)
                }
            }
            out.append((k, w.bytes))
        }
        return out
    }

    /// Reads ``storedChunks(changedSince:)`` back: `chunks` are chunks `0...` in order. Fails
    /// with a typed error on a chunk that is not full but the last, a total that is not a full
    /// tree's width (a chunk missing or left over), trailing bytes, and a node of the wrong type
    /// for its position.
    package init(storedChunks chunks: [[UInt8]]) throws {
        var nodes: [Node?] = []
        nodes.reserveCapacity(chunks.count * Self.storedChunkNodes)
        for (k, bytes) in chunks.enumerated() {
            guard nodes.count == k * Self.storedChunkNodes else { throw MLSError(.invalidTree, "stored tree chunk \(k - 1) is not full") }
            var r = TLSReader(bytes)
            nodes += try r.readVector { try Node.readOptional(from: &$0) }
            try r.finish()
        }
        let count = nodes.count
        guard count >= 1, count <= Self.storedChunkNodes * chunks.count, (count + 1) & count == 0 else {
            throw MLSError(.invalidTree, "stored tree of \(count) nodes in \(chunks.count) chunks")
        }
        try self.init(nodes: nodes)
    }
}
