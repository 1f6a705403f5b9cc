/// Finds where a `Proposal` or `Commit` ends inside a FramedContent or PrivateMessageContent.
///
/// Those bodies carry no length prefix (RFC 9420 §6, §12), so a reader must walk their structure.
/// Each closure advances the reader past exactly one body and throws on malformed input; the
/// framing layer keeps the bytes it skipped. ``standard`` walks the RFC 9420 structures with the
/// codec types of this package; the group engine may pass one built on its own `Proposal` and
/// `Commit` decoders instead (e.g. `{ _ = try Proposal(from: &$0) }`).
package struct FramedContentBodyParser: Sendable {
    package let skipProposal: @Sendable (inout TLSReader) throws -> Void
    package let skipCommit: @Sendable (inout TLSReader) throws -> Void

    package init(skipProposal: @escaping @Sendable (inout TLSReader) throws -> Void,
                skipCommit: @escaping @Sendable (inout TLSReader) throws -> Void) {
        self.skipProposal = skipProposal
        self.skipCommit = skipCommit
    }

    /// Walks the proposal types of RFC 9420 §12.1 (add 1 … group_context_extensions 7) and
    /// SelfRemove (0x000a, draft-ietf-mls-extensions: empty body), and `Commit` (§12.4). Other
    /// proposal types cannot be delimited and are rejected.
    package static let standard = FramedContentBodyParser(skipProposal: { try skipStandardProposal(&$0) },
                                                         skipCommit: { try skipStandardCommit(&$0) })

    static func skipStandardProposal(_ r: inout TLSReader) throws {
        let type = try r.readUInt16()
        switch type {
        case 1: _ = try KeyPackage(from: &r)                      // Add
        case 2: _ = try LeafNode(from: &r)                        // Update
        case 3: _ = try r.readUInt32()                            // Remove
        case 4: try skipPreSharedKeyID(&r)                        // PreSharedKey
        case 5:                                                   // ReInit
            _ = try r.skipOpaque()
            _ = try r.readUInt16()
            _ = try r.readUInt16()
            _ = try r.skipOpaque()
        case 6, 7: _ = try r.skipOpaque()                         // ExternalInit, GroupContextExtensions
        case 0x0008: _ = try AppDataUpdate(from: &r)              // AppDataUpdate
        case 0x000a: break                                        // SelfRemove
        default: throw MLSError(.invalidValue, "proposal type \(type) cannot be delimited")
        }
    }

    static func skipPreSharedKeyID(_ r: inout TLSReader) throws {
        switch try r.readUInt8() {
        case 1: _ = try r.skipOpaque()
        case 2:
            let usage = try r.readUInt8()
            guard (1...3).contains(usage) else { throw MLSError(.invalidValue, "resumption usage \(usage)") }
            _ = try r.skipOpaque()
            _ = try r.readUInt64()
        case let v: throw MLSError(.invalidValue, "psktype \(v)")
        }
        _ = try r.skipOpaque()
    }

    static func skipStandardCommit(_ r: inout TLSReader) throws {
        _ = try r.readVector { sub -> Void in
            switch try sub.readUInt8() {
            case 1: try skipStandardProposal(&sub)
            case 2: _ = try sub.skipOpaque()
            case let v: throw MLSError(.invalidValue, "ProposalOrRef type \(v)")
            }
        }
        switch try r.readUInt8() {
        case 0: break
        case 1: _ = try UpdatePath(from: &r)
        case let v: throw MLSError(.invalidValue, "optional presence byte \(v)")
        }
    }
}
