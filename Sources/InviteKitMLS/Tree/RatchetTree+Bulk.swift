import InviteKitCrypto

/// Building a large, fully populated tree in one pass, for benchmarks and tests that need groups of
/// thousands of members without running thousands of commits.
extension RatchetTree {
    /// A tree whose leaves `0..<leaves.count` hold `leaves` and whose parent nodes are all
    /// non-blank where both subtrees hold a member: the shape a group reaches once its members have
    /// committed, so that every copath resolution is a single node (RFC 9420 §4.1.1).
    ///
    /// Each non-blank parent node gets a fresh key pair from `rng`. It reads as if the rightmost
    /// member below each parent committed last: the representative of the parent's right child
    /// carries the parent hash linking it to the parent (RFC 9420 §7.9), re-signed as a `commit`
    /// leaf with `signingKeys[i]` bound to `groupID` when it is a leaf (RFC 9420 §7.2). Nodes a
    /// later commit would have superseded carry a random 32-byte `parent_hash` in place of the hash
    /// of an ancestor that no longer exists. The result satisfies ``validate(suite:groupID:expectedTreeHash:)``.
    ///
    /// Returns the tree and the private key of every non-blank parent node.
    static func populated(leaves: [LeafNode], signingKeys: [Ed25519.PrivateKey], groupID: [UInt8],
                          rng: RandomSource) throws -> (tree: RatchetTree, parentKeys: [UInt32: X25519.PrivateKey]) {
        precondition(leaves.count == signingKeys.count && !leaves.isEmpty)
        var tree = try RatchetTree(nodes: leaves.flatMap { [Node.leaf($0), nil] }.dropLast())
        var keys: [UInt32: X25519.PrivateKey] = [:]
        keys.reserveCapacity(leaves.count)
        tree.populate(tree.root, incoming: nil, occupied: UInt32(leaves.count), signingKeys: signingKeys, groupID: groupID,
                      keys: &keys, rng: rng)
        return (tree, keys)
    }

    /// Fills the subtree under `x` (whose occupied leaves are those below `occupied`) and its
    /// tree hashes; `incoming` is the parent hash its representative must carry.
    private mutating func populate(_ x: UInt32, incoming: [UInt8]?, occupied: UInt32, signingKeys: [Ed25519.PrivateKey],
                                   groupID: [UInt8], keys: inout [UInt32: X25519.PrivateKey], rng: RandomSource) {
        func holdsMember(_ y: UInt32) -> Bool { TreeMath.leafIndex(node: TreeMath.subtreeRange(y).lowerBound) < occupied }
        if TreeMath.isLeaf(x) {
            let leafIndex = TreeMath.leafIndex(node: x)
            if let incoming, var leaf = storage[Int(x)]?.leafNode {
                leaf.source = .commit(parentHash: incoming)
                leaf.sign(with: signingKeys[Int(leafIndex)], groupID: groupID, leafIndex: leafIndex)
                write(Int(x), .leaf(leaf))
            }
            hashes[Int(x)] = nodeHash(x, left: .zero, right: .zero)
            return
        }
        let l = TreeMath.left(x), r = TreeMath.right(x)
        if holdsMember(r) {
            let key = X25519.PrivateKey(using: rng)
            keys[x] = key
            let node = ParentNode(encryptionKey: key.publicKey, parentHash: incoming ?? rng.bytes(32), unmergedLeaves: [])
            write(Int(x), .parent(node))
            populate(l, incoming: nil, occupied: occupied, signingKeys: signingKeys, groupID: groupID, keys: &keys, rng: rng)
            let towardsRight = Self.parentHash(of: node, originalSiblingTreeHash: hashes[Int(l)])
            populate(r, incoming: towardsRight, occupied: occupied, signingKeys: signingKeys, groupID: groupID, keys: &keys, rng: rng)
        } else {
            // Leaves are filled from the left, so only the left side can hold members; the node
            // stays blank and the left side's representative is this node's.
            populate(l, incoming: incoming, occupied: occupied, signingKeys: signingKeys, groupID: groupID, keys: &keys, rng: rng)
        }
        let h = nodeHash(x, left: hashes[Int(l)], right: hashes[Int(r)])
        hashes[Int(x)] = h
    }
}
