/// `MLSMessage` (RFC 9420 §6) carrying a PublicMessage or PrivateMessage:
/// `ProtocolVersion version = mls10; WireFormat wire_format; select (wire_format) { ... }`.
///
/// Welcome, GroupInfo and KeyPackage messages are framed elsewhere.
package enum MLSFramedMessage: Hashable, Sendable, TLSCodable {
    case publicMessage(PublicMessage)
    case privateMessage(PrivateMessage)

    package var wireFormat: WireFormat {
        switch self {
        case .publicMessage: return .publicMessage
        case .privateMessage: return .privateMessage
        }
    }

    /// Parses with ``FramedContentBodyParser/standard``.
    package init(from reader: inout TLSReader) throws { try self.init(from: &reader, parser: .standard) }

    package init(from reader: inout TLSReader, parser: FramedContentBodyParser) throws {
        let version = try ProtocolVersion(from: &reader)
        guard version == .mls10 else { throw MLSError(.invalidValue, "MLSMessage version \(version.rawValue)") }
        let wf = try WireFormat(from: &reader)
        switch wf {
        case .publicMessage: self = .publicMessage(try PublicMessage(from: &reader, parser: parser))
        case .privateMessage: self = .privateMessage(try PrivateMessage(from: &reader))
        default: throw MLSError(.invalidValue, "wire_format \(wf.rawValue) is not a framed message")
        }
    }

    /// Parses exactly `bytes`.
    package init(tlsSerialized bytes: [UInt8], parser: FramedContentBodyParser) throws {
        var r = TLSReader(bytes)
        try self.init(from: &r, parser: parser)
        try r.finish()
    }

    package func encode(to writer: inout TLSWriter) {
        ProtocolVersion.mls10.encode(to: &writer)
        wireFormat.encode(to: &writer)
        switch self {
        case .publicMessage(let m): m.encode(to: &writer)
        case .privateMessage(let m): m.encode(to: &writer)
        }
    }
}
