/// The `ratchet_tree` extension (RFC 9420 §12.4.3.3, type 0x0002): `optional<Node>
/// ratchet_tree<V>;`, the tree's nodes in array order, blanks as absent entries.
package struct RatchetTreeExtension: Hashable, Sendable, TLSCodable {
    /// The extension type.
    package static let extensionType: UInt16 = 0x0002

    package var nodes: [Node?]

    package init(nodes: [Node?]) { self.nodes = nodes }

    package init(from reader: inout TLSReader) throws {
        nodes = try reader.readVector { r in try r.readOptional { try Node(from: &$0) } }
    }

    package func encode(to writer: inout TLSWriter) {
        writer.writeVector { w in for n in nodes { w.writeOptional(n) } }
    }

    /// As a GroupInfo extension.
    package var asExtension: MLSExtension { MLSExtension(type: Self.extensionType, data: tlsSerialized) }
}

extension RatchetTreeExtension {
    /// The `ratchet_tree` extension carrying `tree` (without trailing blanks).
    static func fromTree(_ tree: RatchetTree) -> MLSExtension {
        MLSExtension(type: extensionType, data: tree.tlsSerialized)
    }
}
