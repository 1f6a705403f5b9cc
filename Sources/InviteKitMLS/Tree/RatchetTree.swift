/// The public ratchet tree of a group (RFC 9420 §4, §7): a full binary tree in array form
/// (RFC 9420 Appendix C), leaves at even indices, each node present or blank.
///
/// The leaf count is always a power of two (RFC 9420 §7.7); the wire form drops trailing blank
/// nodes (RFC 9420 §12.4.3.3) and ``init(from:)`` pads them back.
public struct RatchetTree: Hashable, Sendable {
    /// Every node, `nil` when blank. `nodes.count == 2 * leafCount - 1`.
    public internal(set) var nodes: [Node?]

    /// A one-member tree.
    public init(firstLeaf: LeafNode) {
        nodes = [.leaf(firstLeaf)]
    }

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
            switch n {
            case .leaf?: guard i % 2 == 0 else { throw MLSError(.invalidTree, "leaf node at parent index \(i)") }
            case .parent?: guard i % 2 == 1 else { throw MLSError(.invalidTree, "parent node at leaf index \(i)") }
            case nil: break
            }
        }
        nodes = given + Array(repeating: nil, count: Int(TreeMath.nodeWidth(leafCount: leafCount)) - given.count)
    }

    /// Number of leaf slots (a power of two), blank or not.
    public var leafCount: UInt32 { UInt32((nodes.count + 1) / 2) }

    var root: UInt32 { TreeMath.root(leafCount: leafCount) }

    /// The node at node index `index`, `nil` when blank or out of range.
    public subscript(node index: UInt32) -> Node? {
        Int(index) < nodes.count ? nodes[Int(index)] : nil
    }

    /// The leaf node at leaf index `leaf`, `nil` when blank or out of range.
    public func leaf(_ leaf: UInt32) -> LeafNode? {
        if case .leaf(let l)? = self[node: TreeMath.nodeIndex(leaf: leaf)] { return l }
        return nil
    }

    func parentNode(_ index: UInt32) -> ParentNode? {
        if case .parent(let p)? = self[node: index] { return p }
        return nil
    }

    /// Leaf indices of the non-blank leaves, ascending.
    public var occupiedLeaves: [UInt32] {
        (0..<leafCount).filter { leaf($0) != nil }
    }

    mutating func setNode(_ index: UInt32, _ node: Node?) {
        nodes[Int(index)] = node
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
        for (p, c) in zip(path, copath) where !resolution(of: c).isEmpty { out.append((p, c)) }
        return out
    }

    /// The filtered direct path of `leaf` (RFC 9420 §4.1.2).
    public func filteredDirectPath(leaf: UInt32) -> [UInt32] {
        filteredDirectPathWithCopath(leaf: leaf).map(\.node)
    }

    /// The resolution of a node (RFC 9420 §4.1.1): the node itself and its unmerged leaves when it
    /// is not blank; nothing for a blank leaf; otherwise the resolutions of its two children.
    public func resolution(of index: UInt32) -> [UInt32] {
        var out: [UInt32] = []
        appendResolution(of: index, to: &out)
        return out
    }

    private func appendResolution(of index: UInt32, to out: inout [UInt32]) {
        switch self[node: index] {
        case .leaf?: out.append(index)
        case .parent(let p)?:
            out.append(index)
            for l in p.unmergedLeaves { out.append(TreeMath.nodeIndex(leaf: l)) }
        case nil:
            guard !TreeMath.isLeaf(index) else { return }
            appendResolution(of: TreeMath.left(index), to: &out)
            appendResolution(of: TreeMath.right(index), to: &out)
        }
    }

    // MARK: lookups

    /// The leaf index of the member whose leaf carries `signatureKey`.
    public func leafIndex(signatureKey: [UInt8]) -> UInt32? {
        (0..<leafCount).first { leaf($0)?.signatureKey == signatureKey }
    }

    /// The leaf index of the first member whose credential identity is `identity` (for Marmot, the
    /// member's Nostr public key).
    public func leafIndex(identity: [UInt8]) -> UInt32? {
        (0..<leafCount).first { leaf($0)?.credential.identity == identity }
    }
}
