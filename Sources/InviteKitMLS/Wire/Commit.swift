/// `Commit` (RFC 9420 §12.4): `ProposalOrRef proposals<V>; optional<UpdatePath> path;`.
package struct Commit: Hashable, Sendable, TLSCodable {
    package var proposals: [ProposalOrRef]
    package var path: UpdatePath?

    package init(proposals: [ProposalOrRef], path: UpdatePath?) {
        self.proposals = proposals
        self.path = path
    }

    package init(from reader: inout TLSReader) throws {
        proposals = try reader.readVector { try ProposalOrRef(from: &$0) }
        path = try reader.readOptional { try UpdatePath(from: &$0) }
    }

    package func encode(to writer: inout TLSWriter) {
        writer.writeVector(proposals)
        writer.writeOptional(path)
    }
}
