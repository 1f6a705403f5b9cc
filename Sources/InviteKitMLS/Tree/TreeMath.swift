/// Index arithmetic for the array representation of a full, left-balanced binary tree
/// (RFC 9420 §4.2 and Appendix C). Leaves sit at even node indices; a node's level is the number
/// of trailing one bits of its index. Trees always hold a power-of-two number of leaves
/// (RFC 9420 §7.7), so no function needs the leaf count except ``root(leafCount:)`` and the path
/// functions, which stop at the root.
enum TreeMath {
    /// `level(x)`: 0 for leaves.
    static func level(_ x: UInt32) -> UInt32 { UInt32((~x).trailingZeroBitCount) }

    static func isLeaf(_ x: UInt32) -> Bool { x & 1 == 0 }

    static func nodeIndex(leaf: UInt32) -> UInt32 { leaf &* 2 }

    static func leafIndex(node: UInt32) -> UInt32 { node >> 1 }

    /// Number of nodes in a tree of `leafCount` leaves (`2n - 1`).
    static func nodeWidth(leafCount: UInt32) -> UInt32 { leafCount == 0 ? 0 : 2 * (leafCount - 1) + 1 }

    /// The root of a full tree with `leafCount` (a power of two) leaves.
    static func root(leafCount: UInt32) -> UInt32 { leafCount - 1 }

    /// Left child of a parent node.
    static func left(_ x: UInt32) -> UInt32 {
        let k = level(x)
        precondition(k > 0, "leaf has no children")
        return x ^ (1 << (k - 1))
    }

    /// Right child of a parent node.
    static func right(_ x: UInt32) -> UInt32 {
        let k = level(x)
        precondition(k > 0, "leaf has no children")
        return x ^ (3 << (k - 1))
    }

    /// Parent of a non-root node in a full tree.
    static func parent(_ x: UInt32) -> UInt32 {
        let k = level(x)
        let b = (x >> (k + 1)) & 1
        return (x | (1 << k)) ^ (b << (k + 1))
    }

    static func sibling(_ x: UInt32) -> UInt32 {
        let p = parent(x)
        return x < p ? right(p) : left(p)
    }

    /// First and last node index of the subtree under `x`.
    static func subtreeRange(_ x: UInt32) -> ClosedRange<UInt32> {
        let span: UInt32 = (1 << level(x)) - 1
        return (x - span)...(x + span)
    }

    /// `true` when leaf `leaf` lies in the subtree under `x`.
    static func contains(_ x: UInt32, leaf: UInt32) -> Bool { subtreeRange(x).contains(nodeIndex(leaf: leaf)) }

    /// The direct path of `x` (RFC 9420 §4.1.2): its ancestors from its parent to the root.
    static func directPath(_ x: UInt32, leafCount: UInt32) -> [UInt32] {
        let r = root(leafCount: leafCount)
        var out: [UInt32] = []
        var n = x
        while n != r {
            n = parent(n)
            out.append(n)
        }
        return out
    }

    /// The copath of `x` (RFC 9420 §4.1.2): the sibling of `x` and of each node of its direct path
    /// but the root.
    static func copath(_ x: UInt32, leafCount: UInt32) -> [UInt32] {
        let r = root(leafCount: leafCount)
        var out: [UInt32] = []
        var n = x
        while n != r {
            out.append(sibling(n))
            n = parent(n)
        }
        return out
    }

    /// The lowest common ancestor of two nodes.
    static func commonAncestor(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var x = a, y = b
        while x != y {
            if level(x) < level(y) { x = parent(x) } else if level(y) < level(x) { y = parent(y) } else { x = parent(x); y = parent(y) }
        }
        return x
    }
}
