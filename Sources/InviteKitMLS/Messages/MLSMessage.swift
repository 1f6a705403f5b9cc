/// `MLSMessage` (RFC 9420 §6): the protocol version, the wire format and its body.
///
/// Welcome, GroupInfo and KeyPackage bodies are parsed here. PublicMessage and PrivateMessage
/// bodies are kept as their exact bytes (they run to the end of the message): the framing layer
/// parses and verifies them with the group's keys.
package struct MLSMessage: Hashable, Sendable, TLSCodable {
    /// `WireFormat` values (RFC 9420 §17.2).
    package enum WireFormat: UInt16, Sendable {
        case publicMessage = 1, privateMessage = 2, welcome = 3, groupInfo = 4, keyPackage = 5
    }

    /// The body selected by `wire_format`.
    package enum Body: Hashable, Sendable {
        /// A `PublicMessage`, serialized.
        case publicMessage([UInt8])
        /// A `PrivateMessage`, serialized.
        case privateMessage([UInt8])
        case welcome(Welcome)
        case groupInfo(GroupInfo)
        case keyPackage(KeyPackage)

        package var wireFormat: WireFormat {
            switch self {
            case .publicMessage: return .publicMessage
            case .privateMessage: return .privateMessage
            case .welcome: return .welcome
            case .groupInfo: return .groupInfo
            case .keyPackage: return .keyPackage
            }
        }
    }

    package var version: ProtocolVersion
    package var body: Body

    package init(_ body: Body, version: ProtocolVersion = .mls10) {
        self.version = version
        self.body = body
    }

    package init(keyPackage: KeyPackage, version: ProtocolVersion = .mls10) {
        self.init(.keyPackage(keyPackage), version: version)
    }

    package var wireFormat: WireFormat { body.wireFormat }

    /// The KeyPackage, or `invalid_value` when the message carries something else.
    package var keyPackage: KeyPackage {
        get throws {
            guard case .keyPackage(let kp) = body else { throw MLSError(.invalidValue, "wire_format \(wireFormat.rawValue) is not mls_key_package") }
            return kp
        }
    }

    package init(from reader: inout TLSReader) throws {
        version = try ProtocolVersion(from: &reader)
        guard version == .mls10 else { throw MLSError(.invalidValue, "MLSMessage version \(version.rawValue)") }
        let raw = try reader.readUInt16()
        guard let wf = WireFormat(rawValue: raw) else { throw MLSError(.invalidValue, "wire_format \(raw)") }
        switch wf {
        case .publicMessage: body = .publicMessage(try reader.readBytes(reader.remaining))
        case .privateMessage: body = .privateMessage(try reader.readBytes(reader.remaining))
        case .welcome: body = .welcome(try Welcome(from: &reader))
        case .groupInfo: body = .groupInfo(try GroupInfo(from: &reader))
        case .keyPackage: body = .keyPackage(try KeyPackage(from: &reader))
        }
    }

    package func encode(to writer: inout TLSWriter) {
        version.encode(to: &writer)
        writer.writeUInt16(wireFormat.rawValue)
        switch body {
        case .publicMessage(let b), .privateMessage(let b): writer.writeBytes(b)
        case .welcome(let w): w.encode(to: &writer)
        case .groupInfo(let g): g.encode(to: &writer)
        case .keyPackage(let k): k.encode(to: &writer)
        }
    }
}
