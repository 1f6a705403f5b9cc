/// `Commit` (RFC 9420 §12.4): `ProposalOrRef proposals<V>; optional<UpdatePath> path;`.
public struct Commit: Hashable, Sendable, TLSCodable {
    public var proposals: [ProposalOrRef]
    public var path: UpdatePath?

    public init(proposals: [ProposalOrRef], path: UpdatePath?) {
        self.proposals = proposals
        self.path = path
    }

    public init(from reader: inout TLSReader) throws {
        proposals = try reader.readVector { try ProposalOrRef(from: &$0) }
        path = try reader.readOptional { try UpdatePath(from: &$0) }
    }

    public func encode(to writer: inout TLSWriter) {
        writer.writeVector(proposals)
        writer.writeOptional(path)
    }
}
