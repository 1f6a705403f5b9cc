/// `WireFormat` (RFC 9420 §6, registry §17.2): a uint16.
public struct WireFormat: RawRepresentable, Hashable, Sendable, TLSCodable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let publicMessage = WireFormat(rawValue: 1)
    public static let privateMessage = WireFormat(rawValue: 2)
    public static let welcome = WireFormat(rawValue: 3)
    public static let groupInfo = WireFormat(rawValue: 4)
    public static let keyPackage = WireFormat(rawValue: 5)

    public init(from reader: inout TLSReader) throws { rawValue = try reader.readUInt16() }
    public func encode(to writer: inout TLSWriter) { writer.writeUInt16(rawValue) }
}
