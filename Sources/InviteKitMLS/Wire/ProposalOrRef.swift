import InviteKitCrypto

/// `ProposalOrRef` (RFC 9420 §12.4): a proposal carried in the Commit, or the reference of one
/// sent earlier in the epoch.
package enum ProposalOrRef: Hashable, Sendable, TLSCodable {
    case proposal(Proposal)
    /// `ProposalRef = MakeProposalRef(AuthenticatedContent)` (RFC 9420 §5.2).
    case reference([UInt8])

    package init(from reader: inout TLSReader) throws {
        switch try reader.readUInt8() {
        case 1: self = .proposal(try Proposal(from: &reader))
        case 2: self = .reference(try reader.readOpaque())
        case let t: throw MLSError(.invalidValue, "ProposalOrRefType \(t)")
        }
    }

    package func encode(to writer: inout TLSWriter) {
        switch self {
        case .proposal(let p):
            writer.writeUInt8(1)
            p.encode(to: &writer)
        case .reference(let r):
            writer.writeUInt8(2)
            writer.writeOpaque(r)
        }
    }

    /// `MakeProposalRef(value) = RefHash("MLS 1.0 Proposal Reference", value)` over the
    /// serialized AuthenticatedContent that carried the proposal (RFC 9420 §5.2).
    package static func makeReference(authenticatedContent: [UInt8]) -> [UInt8] {
        MLSCrypto.refHash(label: "MLS 1.0 Proposal Reference", value: authenticatedContent)
    }
}
