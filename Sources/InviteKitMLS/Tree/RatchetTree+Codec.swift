/// The `ratchet_tree` wire form, `optional<Node> ratchet_tree<V>` (RFC 9420 §12.4.3.3).
extension RatchetTree: TLSCodable {
    /// Parses a `ratchet_tree`. Fails on an empty tree, a trailing blank node
    /// (RFC 9420 §12.4.3.3), an `optional` presence byte other than 0 or 1, and a node whose type
    /// does not match its position.
    package init(from reader: inout TLSReader) throws {
        let list: [Node?] = try reader.readVector { r in
            switch try r.readUInt8() {
            case 0: return nil
            case 1: return try Node(from: &r)
            case let b: throw MLSError(.invalidValue, "optional presence byte \(b)")
            }
        }
        guard let last = list.last else { throw MLSError(.invalidTree, "empty ratchet tree") }
        guard last != nil else { throw MLSError(.invalidTree, "ratchet tree ends with a blank node") }
        try self.init(nodes: list)
    }

    /// Writes the tree without its trailing blank nodes.
    package func encode(to writer: inout TLSWriter) {
        let end = (storage.lastIndex { $0 != nil } ?? -1) + 1
        writer.writeVector { w in
            for n in storage[..<end] {
                if let n { w.writeUInt8(1); n.encode(to: &w) } else { w.writeUInt8(0) }
            }
        }
    }
}
