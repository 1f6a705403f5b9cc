/// `Node` (RFC 9420 §7.8): `NodeType node_type; select (node_type) { leaf: LeafNode; parent: ParentNode; }`.
///
/// One reference to an immutable box: a commit copies the tree's node array, and a boxed node
/// copies with one retain instead of one per field. Not an `indirect enum`: Swift keeps the case
/// of a two-case indirect enum in the top bit of the box pointer, which LeakSanitizer cannot
/// follow, so every live parent node looked leaked (issue 20). Match on ``kind``.
package struct Node: Hashable, Sendable, TLSCodable {
    /// The node's content, for `switch`.
    package enum Kind: Hashable, Sendable {
        case leaf(LeafNode)
        case parent(ParentNode)
    }

    /// Two optionals rather than a ``Kind``: an optional struct marks `nil` with an invalid
    /// pointer value, so every stored reference stays a plain pointer.
    private final class Box: Sendable {
        let leaf: LeafNode?
        let parent: ParentNode?
        init(leaf: LeafNode?, parent: ParentNode?) { self.leaf = leaf; self.parent = parent }
    }

    private let box: Box

    package static func leaf(_ node: LeafNode) -> Node { Node(box: Box(leaf: node, parent: nil)) }
    package static func parent(_ node: ParentNode) -> Node { Node(box: Box(leaf: nil, parent: node)) }

    private init(box: Box) { self.box = box }

    package var kind: Kind {
        if let l = box.leaf { return .leaf(l) }
        return .parent(box.parent!)
    }

    /// The leaf node, `nil` for a parent.
    package var leafNode: LeafNode? { box.leaf }
    /// The parent node, `nil` for a leaf.
    package var parentNode: ParentNode? { box.parent }
    package var isLeaf: Bool { box.leaf != nil }

    /// `NodeType` values (RFC 9420 §7.8).
    package enum NodeType: UInt8, Sendable { case leaf = 1, parent = 2 }

    package var encryptionKey: [UInt8] { box.leaf?.encryptionKey ?? box.parent!.encryptionKey }
    /// A leaf's signature key, `nil` for a parent (read in place, without copying the leaf).
    var signatureKey: [UInt8]? { box.leaf?.signatureKey }

    package static func == (a: Node, b: Node) -> Bool { a.box === b.box || (a.box.leaf == b.box.leaf && a.box.parent == b.box.parent) }

    package func hash(into h: inout Hasher) {
        h.combine(box.leaf)
        h.combine(box.parent)
    }

    package init(from reader: inout TLSReader) throws {
        switch try reader.readUInt8() {
        case NodeType.leaf.rawValue: self = .leaf(try LeafNode(from: &reader))
        case NodeType.parent.rawValue: self = .parent(try ParentNode(from: &reader))
        case let t: throw MLSError(.invalidValue, "node_type \(t)")
        }
    }

    /// Reads an `optional<Node>` (RFC 9420 §2.1.2): a presence byte of 0 or 1, then the node.
    static func readOptional(from reader: inout TLSReader) throws -> Node? {
        switch try reader.readUInt8() {
        case 0: return nil
        case 1: return try Node(from: &reader)
        case let b: throw MLSError(.invalidValue, "optional presence byte \(b)")
        }
    }

    /// Writes `node` as an `optional<Node>`.
    static func encodeOptional(_ node: Node?, to writer: inout TLSWriter) {
        if let node { writer.writeUInt8(1); node.encode(to: &writer) } else { writer.writeUInt8(0) }
    }

    package func encode(to writer: inout TLSWriter) {
        if let l = box.leaf {
            writer.writeUInt8(NodeType.leaf.rawValue); l.encode(to: &writer)
        } else {
            writer.writeUInt8(NodeType.parent.rawValue); box.parent!.encode(to: &writer)
        }
    }
}
