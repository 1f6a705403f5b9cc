/// `UpdatePath` (RFC 9420 §7.6): `LeafNode leaf_node; UpdatePathNode nodes<V>;`.
public struct UpdatePath: Hashable, Sendable, TLSCodable {
    public var leafNode: LeafNode
    public var nodes: [UpdatePathNode]

    public init(leafNode: LeafNode, nodes: [UpdatePathNode]) {
        self.leafNode = leafNode
        self.nodes = nodes
    }

    public init(from reader: inout TLSReader) throws {
        leafNode = try LeafNode(from: &reader)
        nodes = try reader.readVector { try UpdatePathNode(from: &$0) }
    }

    public func encode(to writer: inout TLSWriter) {
        leafNode.encode(to: &writer)
        writer.writeVector(nodes)
    }
}
