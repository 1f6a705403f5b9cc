/// `Sender` (RFC 9420 §6): who framed a message.
package enum Sender: Hashable, Sendable, TLSCodable {
    /// A member, by leaf index.
    case member(leafIndex: UInt32)
    /// An external sender, by index into the `external_senders` extension.
    case external(senderIndex: UInt32)
    /// A non-member proposing its own Add.
    case newMemberProposal
    /// A non-member joining by external commit.
    case newMemberCommit

    /// `SenderType` values.
    var senderType: UInt8 {
        switch self {
        case .member: return 1
        case .external: return 2
        case .newMemberProposal: return 3
        case .newMemberCommit: return 4
        }
    }

    package init(from reader: inout TLSReader) throws {
        let type = try reader.readUInt8()
        switch type {
        case 1: self = .member(leafIndex: try reader.readUInt32())
        case 2: self = .external(senderIndex: try reader.readUInt32())
        case 3: self = .newMemberProposal
        case 4: self = .newMemberCommit
        default: throw MLSError(.invalidValue, "sender_type \(type)")
        }
    }

    package func encode(to writer: inout TLSWriter) {
        writer.writeUInt8(senderType)
        switch self {
        case .member(let i): writer.writeUInt32(i)
        case .external(let i): writer.writeUInt32(i)
        case .newMemberProposal, .newMemberCommit: break
        }
    }
}
