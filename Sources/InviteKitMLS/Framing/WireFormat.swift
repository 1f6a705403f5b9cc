/// `WireFormat` (RFC 9420 §6, registry §17.2): a uint16.
package struct WireFormat: RawRepresentable, Hashable, Sendable, TLSCodable {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    package static let publicMessage = WireFormat(rawValue: 1)
    package static let privateMessage = WireFormat(rawValue: 2)
    package static let welcome = WireFormat(rawValue: 3)
    package static let groupInfo = WireFormat(rawValue: 4)
    package static let keyPackage = WireFormat(rawValue: 5)

    package init(from reader: inout TLSReader) throws { rawValue = try reader.readUInt16() }
    package func encode(to writer: inout TLSWriter) { writer.writeUInt16(rawValue) }
}
