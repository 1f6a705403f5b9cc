/// `Node` (RFC 9420 §7.8): `NodeType node_type; select (node_type) { leaf: LeafNode; parent: ParentNode; }`.
public enum Node: Hashable, Sendable, TLSCodable {
    // Boxed: a commit copies the tree's node array, and a boxed node copies with one retain
    // instead of one per field.
    indirect case leaf(LeafNode)
    indirect case parent(ParentNode)

    /// `NodeType` values (RFC 9420 §7.8).
    public enum NodeType: UInt8, Sendable { case leaf = 1, parent = 2 }

    public var encryptionKey: [UInt8] {
        switch self {
        case .leaf(let l): return l.encryptionKey
        case .parent(let p): return p.encryptionKey
        }
    }

    public init(from reader: inout TLSReader) throws {
        switch try reader.readUInt8() {
        case NodeType.leaf.rawValue: self = .leaf(try LeafNode(from: &reader))
        case NodeType.parent.rawValue: self = .parent(try ParentNode(from: &reader))
        case let t: throw MLSError(.invalidValue, "node_type \(t)")
        }
    }

    public func encode(to writer: inout TLSWriter) {
        switch self {
        case .leaf(let l): writer.writeUInt8(NodeType.leaf.rawValue); l.encode(to: &writer)
        case .parent(let p): writer.writeUInt8(NodeType.parent.rawValue); p.encode(to: &writer)
        }
    }
}
