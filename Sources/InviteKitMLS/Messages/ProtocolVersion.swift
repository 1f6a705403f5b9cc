/// `ProtocolVersion` (RFC 9420 §6): a uint16; `mls10 = 1`.
public struct ProtocolVersion: RawRepresentable, Hashable, Sendable, TLSCodable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// MLS 1.0.
    public static let mls10 = ProtocolVersion(rawValue: 1)

    public init(from reader: inout TLSReader) throws { rawValue = try reader.readUInt16() }
    public func encode(to writer: inout TLSWriter) { writer.writeUInt16(rawValue) }
}
