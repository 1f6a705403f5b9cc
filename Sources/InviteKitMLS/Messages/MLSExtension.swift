/// `Extension` (RFC 9420 §13.4): a type and opaque data, kept verbatim.
public struct MLSExtension: Hashable, Sendable, TLSCodable {
    /// `last_resort` KeyPackage extension (RFC 9420 §17.3, value 0x000a; empty data).
    package static let lastResortType: UInt16 = 0x000a
    /// Marmot's group data extension (0xf2ee).
    package static let marmotGroupDataType: UInt16 = 0xf2ee
    /// The SelfRemove proposal type (0x000a, MLS extensions draft) that Marmot advertises.
    package static let selfRemoveProposalType: UInt16 = 0x000a

    package let extensionType: UInt16
    package let data: [UInt8]

    package init(type: UInt16, data: [UInt8]) {
        self.extensionType = type
        self.data = data
    }

    /// The empty `last_resort` extension.
    package static let lastResort = MLSExtension(type: lastResortType, data: [])

    package init(from reader: inout TLSReader) throws {
        extensionType = try reader.readUInt16()
        data = try reader.readOpaque()
    }

    package func encode(to writer: inout TLSWriter) {
        writer.writeUInt16(extensionType)
        writer.writeOpaque(data)
    }
}
