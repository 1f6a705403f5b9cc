/// The public ratchet tree of a group (RFC 9420 §4, §7): a full binary tree in array form
/// (RFC 9420 Appendix C), leaves at even indices, each node present or blank.
///
/// The leaf count is always a power of two (RFC 9420 §7.7); the wire form drops trailing blank
/// nodes (RFC 9420 §12.4.3.3) and ``init(from:)`` pads them back.
package struct RatchetTree: Hashable, Sendable {
    /// Every node, `nil` when blank. `nodes.count == 2 * leafCount - 1`. Setting it recomputes
    /// every tree hash and key index; the tree's own mutations write through ``write(_:_:)`` and
    /// rehash only what changed.
    package internal(set) var nodes: [Node?] {
        get { Array(storage) }
        set {
            storage = ChunkedArray(newValue)
            hashes = computeHashes()
            rebuildIndexes()
        }
    }
    /// The nodes, chunked so that a commit on a tree shared with the previous epoch copies only
    /// the chunks it writes. Written only through ``write(_:_:)``, which keeps the key indexes.
    private(set) var storage: ChunkedArray<Node?>
    /// The tree hash of every node (RFC 9420 §7.8), kept current by each mutation so that a commit
    /// rehashes only the paths it touches.
    var hashes = ChunkedArray<NodeHash>()
    /// The node holding each encryption key, parent or leaf, and the leaf holding each signature
    /// key (RFC 9420 §7.3).
    private(set) var keyIndex = KeyIndex()
    /// The number of non-blank nodes in each chunk of `storage`, so that a blank subtree is seen
    /// in O(size / 64) instead of by reading every node (resolutions and filtered direct paths
    /// of a tree with a large blank region). Plain integers: a copy is one memcpy.
    private var nonBlankPerChunk: [UInt16] = []

    /// A one-member tree.
    package init(firstLeaf: LeafNode) {
        storage = ChunkedArray([nil])
        nonBlankPerChunk = [0]
        write(0, .leaf(firstLeaf))
        hashes = computeHashes()
    }

    package static func == (a: RatchetTree, b: RatchetTree) -> Bool { a.storage == b.storage }
    package func hash(into h: inout Hasher) { h.combine(storage) }

    /// Builds from an array in RFC 9420 Appendix C order; trailing blanks may be omitted.
    /// Fails when a leaf slot holds a parent node or the reverse.
    init(nodes given: [Node?]) throws {
        guard !given.isEmpty else { throw MLSError(.invalidTree, "empty ratchet tree") }
        var leafCount: UInt32 = 1
        while Int(TreeMath.nodeWidth(leafCount: leafCount)) < given.count {
            guard leafCount < 1 << 30 else { throw MLSError(.tooLarge, "ratchet tree of \(given.count) nodes") }
            leafCount <<= 1
        }
        for (i, n) in given.enumerated() {
            switch n?.isLeaf {
            case true?: guard i % 2 == 0 else { throw MLSError(.invalidTree, "leaf node at parent index \(i)") }
            case false?: guard i % 2 == 1 else { throw MLSError(.invalidTree, "parent node at leaf index \(i)") }
            case nil: break
            }
        }
        storage = ChunkedArray(given + Array(repeating: nil, count: Int(TreeMath.nodeWidth(leafCount: leafCount)) - given.count))
        hashes = computeHashes()
        rebuildIndexes()
    }

    /// Number of leaf slots (a power of two), blank or not.
    package var leafCount: UInt32 { UInt32((storage.count + 1) / 2) }

    package var root: UInt32 { TreeMath.root(leafCount: leafCount) }

    /// The node at node index `index`, `nil` when blank or out of range.
    package subscript(node index: UInt32) -> Node? {
        Int(index) < storage.count ? storage[Int(index)] : nil
    }

    /// The leaf node at leaf index `leaf`, `nil` when blank or out of range.
    package func leaf(_ leaf: UInt32) -> LeafNode? {
        self[node: TreeMath.nodeIndex(leaf: leaf)]?.leafNode
    }

    func parentNode(_ index: UInt32) -> ParentNode? {
        self[node: index]?.parentNode
    }

    /// Leaf indices of the non-blank leaves, ascending.
    package var occupiedLeaves: [UInt32] {
        (0..<leafCount).filter { leaf($0) != nil }
    }

    mutating func setNode(_ index: UInt32, _ node: Node?) {
        write(Int(index), node)
        rehashPath(from: index)
    }

    /// Sets node `i` without rehashing, keeping the key indexes: every write to `storage` comes
    /// here.
    mutating func write(_ i: Int, _ node: Node?) {
        let old = storage[i]
        if old == nil && node == nil { return }
        let x = UInt32(i)
        let oldEncryption = old?.encryptionKey, newEncryption = node?.encryptionKey
        if oldEncryption != newEncryption {
            if let oldEncryption { keyIndex.remove(oldEncryption, in: .encryption, node: x) }
            if let newEncryption { keyIndex.insert(newEncryption, in: .encryption, node: x) }
        }
        let oldSignature = old?.signatureKey, newSignature = node?.signatureKey
        if oldSignature != newSignature {
            if let oldSignature { keyIndex.remove(oldSignature, in: .signature, node: x) }
            if let newSignature { keyIndex.insert(newSignature, in: .signature, node: x) }
        }
        if old == nil { nonBlankPerChunk[i >> Self.chunkShift] += 1 } else if node == nil { nonBlankPerChunk[i >> Self.chunkShift] -= 1 }
        storage[i] = node
    }

    private static var chunkShift: Int { ChunkedArray<Node?>.chunkShift }
    private static var chunkSize: Int { ChunkedArray<Node?>.chunkSize }

    /// Sizes `nonBlankPerChunk` to `storage` after it grew or lost blank nodes.
    private mutating func resizeChunkCounts() {
        let chunks = (storage.count + Self.chunkSize - 1) >> Self.chunkShift
        if nonBlankPerChunk.count > chunks {
            nonBlankPerChunk.removeLast(nonBlankPerChunk.count - chunks)
        } else {
            nonBlankPerChunk += repeatElement(0, count: chunks - nonBlankPerChunk.count)
        }
    }

    /// Rebuilds both key indexes and the chunk counts from the nodes, after `storage` was
    /// replaced whole.
    mutating func rebuildIndexes() {
        // Sized for every key at once: growing shard by shard would move each key a few times.
        keyIndex = KeyIndex(expectedKeys: storage.count + (storage.count + 1) / 2)
        nonBlankPerChunk = []
        resizeChunkCounts()
        for i in storage.indices {
            guard let n = storage[i] else { continue }
            nonBlankPerChunk[i >> Self.chunkShift] += 1
            keyIndex.insert(n.encryptionKey, in: .encryption, node: UInt32(i))
            if let s = n.signatureKey { keyIndex.insert(s, in: .signature, node: UInt32(i)) }
        }
    }

    /// Recomputes the tree hashes of `index` and its ancestors, after nodes on that path changed
    /// without rehashing (the other subtrees' hashes are current).
    mutating func rehashPath(from index: UInt32) {
        var x = index
        while true {
            let h = TreeMath.isLeaf(x) ? nodeHash(x, left: .zero, right: .zero)
                : nodeHash(x, left: hashes[Int(TreeMath.left(x))], right: hashes[Int(TreeMath.right(x))])
            hashes[Int(x)] = h
            if x == root { break }
            x = TreeMath.parent(x)
        }
    }

    /// Doubles the leaf count: the old tree becomes the left subtree of a new blank root
    /// (RFC 9420 §7.7).
    mutating func extend() {
        storage.append(contentsOf: repeatElement(nil, count: storage.count + 1))
        resizeChunkCounts()
        hashes = computeHashes()
    }

    /// Drops the root and its right subtree, whose nodes must all be blank (RFC 9420 §7.7).
    mutating func dropRightHalf() {
        let half = storage.count / 2
        precondition(isBlankSubtree(TreeMath.right(root)))
        storage.removeLast(half + 1)
        hashes.removeLast(half + 1)
        resizeChunkCounts()
    }

    /// `true` when every node under `x` (and `x`) is blank, so its resolution is empty.
    func isBlankSubtree(_ x: UInt32) -> Bool {
        let range = TreeMath.subtreeRange(x)
        var i = Int(range.lowerBound)
        let end = min(Int(range.upperBound) + 1, storage.count)
        while i < end {
            if i & (Self.chunkSize - 1) == 0, i + Self.chunkSize <= end {
                if nonBlankPerChunk[i >> Self.chunkShift] != 0 { return false }
                i += Self.chunkSize
            } else {
                if storage[i] != nil { return false }
                i += 1
            }
        }
        return true
    }

    // MARK: paths (RFC 9420 §4.1.2)

    /// The direct path of leaf `leaf`: node indices from its parent up to the root.
    func directPath(leaf: UInt32) -> [UInt32] {
        TreeMath.directPath(TreeMath.nodeIndex(leaf: leaf), leafCount: leafCount)
    }

    /// The filtered direct path of `leaf` with, for each node, its child on the copath
    /// (RFC 9420 §4.1.2): nodes whose copath child has an empty resolution are left out.
    func filteredDirectPathWithCopath(leaf: UInt32) -> [(node: UInt32, copathChild: UInt32)] {
        let start = TreeMath.nodeIndex(leaf: leaf)
        let path = TreeMath.directPath(start, leafCount: leafCount)
        let copath = TreeMath.copath(start, leafCount: leafCount)
        var out: [(UInt32, UInt32)] = []
        for (p, c) in zip(path, copath) where !isBlankSubtree(c) { out.append((p, c)) }
        return out
    }

    /// The filtered direct path of `leaf` (RFC 9420 §4.1.2).
    package func filteredDirectPath(leaf: UInt32) -> [UInt32] {
        filteredDirectPathWithCopath(leaf: leaf).map(\.node)
    }

    /// The resolution of a node (RFC 9420 §4.1.1): the node itself and its unmerged leaves when it
    /// is not blank; nothing for a blank leaf; otherwise the resolutions of its two children.
    package func resolution(of index: UInt32) -> [UInt32] {
        var out: [UInt32] = []
        appendResolution(of: index, to: &out)
        return out
    }

    private func appendResolution(of index: UInt32, to out: inout [UInt32]) {
        switch self[node: index]?.kind {
        case .leaf?: out.append(index)
        case .parent(let p)?:
            out.append(index)
            for l in p.unmergedLeaves { out.append(TreeMath.nodeIndex(leaf: l)) }
        case nil:
            guard !TreeMath.isLeaf(index), !isBlankSubtree(index) else { return }
            appendResolution(of: TreeMath.left(index), to: &out)
            appendResolution(of: TreeMath.right(index), to: &out)
        }
    }

    // MARK: lookups

    /// The leaf index of the member whose leaf carries `signatureKey`.
    package func leafIndex(signatureKey: [UInt8]) -> UInt32? {
        nodes(holdingSignatureKey: signatureKey).first.map(TreeMath.leafIndex(node:))
    }

    /// The leaf index of the first member whose credential identity is `identity` (for Marmot, the
    /// member's Nostr public key).
    package func leafIndex(identity: [UInt8]) -> UInt32? {
        (0..<leafCount).first { leaf($0)?.credential.identity == identity }
    }
}
