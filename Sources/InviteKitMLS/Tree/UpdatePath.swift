/// `UpdatePath` (RFC 9420 §7.6): `LeafNode leaf_node; UpdatePathNode nodes<V>;`.
package struct UpdatePath: Hashable, Sendable, TLSCodable {
    package var leafNode: LeafNode
    package var nodes: [UpdatePathNode]

    package init(leafNode: LeafNode, nodes: [UpdatePathNode]) {
        self.leafNode = leafNode
        self.nodes = nodes
    }

    package init(from reader: inout TLSReader) throws {
        leafNode = try LeafNode(from: &reader)
        nodes = try reader.readVector { try UpdatePathNode(from: &$0) }
    }

    package func encode(to writer: inout TLSWriter) {
        leafNode.encode(to: &writer)
        writer.writeVector(nodes)
    }
}
