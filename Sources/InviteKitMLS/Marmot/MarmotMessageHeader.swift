/// The cleartext header of an MLSMessage (RFC 9420 §6): enough to tell which epoch a handshake
/// message belongs to before any key is used, which is what commit-race ordering needs.
package struct MarmotMessageHeader: Sendable, Hashable {
    package enum ContentType: UInt8, Sendable { case application = 1, proposal = 2, commit = 3 }
    package static let publicMessage: UInt16 = 1
    package static let privateMessage: UInt16 = 2

    package let wireFormat: UInt16
    package let groupID: [UInt8]
    package let epoch: UInt64
    package let contentType: ContentType

    /// Reads `version`, `wire_format` and the framing header of a PublicMessage (`FramedContent`:
    /// group_id, epoch, sender, authenticated_data, content_type) or a PrivateMessage (group_id,
    /// epoch, content_type).
    package init(_ message: [UInt8]) throws {
        var r = TLSReader(message)
        guard try r.readUInt16() == ProtocolVersion.mls10.rawValue else { throw MLSError(.invalidValue, "MLSMessage version") }
        wireFormat = try r.readUInt16()
        groupID = try r.readOpaque()
        epoch = try r.readUInt64()
        let type: UInt8
        switch wireFormat {
        case Self.publicMessage:
            switch try r.readUInt8() {  // Sender
            case 1, 2: _ = try r.readUInt32()  // member leaf index, external sender index
            case 3, 4: break                   // new_member_proposal, new_member_commit
            default: throw MLSError(.invalidValue, "sender type")
            }
            _ = try r.skipOpaque()  // authenticated_data
            type = try r.readUInt8()
        case Self.privateMessage:
            type = try r.readUInt8()
        default:
            throw MLSError(.invalidValue, "wire_format \(wireFormat) is not a group message")
        }
        guard let ct = ContentType(rawValue: type) else { throw MLSError(.invalidValue, "content_type \(type)") }
        contentType = ct
    }
}
