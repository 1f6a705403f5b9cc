/// The `ratchet_tree` wire form, `optional<Node> ratchet_tree<V>` (RFC 9420 §12.4.3.3).
extension RatchetTree: TLSCodable {
    /// Parses a `ratchet_tree`. Fails on an empty tree, a trailing blank node
    /// (RFC 9420 §12.4.3.3), an `optional` presence byte other than 0 or 1, and a node whose type
    /// does not match its position.
    package init(from reader: inout TLSReader) throws {
        let list: [Node?] = try reader.readVector { try Node.readOptional(from: &$0) }
        guard let last = list.last else { throw MLSError(.invalidTree, "empty ratchet tree") }
        guard last != nil else { throw MLSError(.invalidTree, "ratchet tree ends with a blank node") }
        try self.init(nodes: list)
    }

    /// Writes the tree without its trailing blank nodes.
    package func encode(to writer: inout TLSWriter) {
        let end = (storage.lastIndex { $0 != nil } ?? -1) + 1
        writer.writeVector { w in
            for n in storage[..<end] {
                Node.encodeOptional(n, to: &w)
            }
        }
    }
}
