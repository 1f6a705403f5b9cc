/// `ProtocolVersion` (RFC 9420 §6): a uint16; `mls10 = 1`.
package struct ProtocolVersion: RawRepresentable, Hashable, Sendable, TLSCodable {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }
    /// MLS 1.0.
    package static let mls10 = ProtocolVersion(rawValue: 1)

    package init(from reader: inout TLSReader) throws { rawValue = try reader.readUInt16() }
    package func encode(to writer: inout TLSWriter) { writer.writeUInt16(rawValue) }
}
