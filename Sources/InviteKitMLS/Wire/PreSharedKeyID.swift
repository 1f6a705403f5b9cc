/// `PreSharedKeyID` (RFC 9420 §8.4). Parsed so that messages carrying it round-trip; the Marmot
/// profile uses no PSKs, and the engine refuses them.
package struct PreSharedKeyID: Hashable, Sendable, TLSCodable {
    /// `PSKType` with its dependent fields.
    package enum Kind: Hashable, Sendable {
        case external(pskID: [UInt8])
        case resumption(usage: UInt8, groupID: [UInt8], epoch: UInt64)
    }

    package var kind: Kind
    package var nonce: [UInt8]

    package init(kind: Kind, nonce: [UInt8]) {
        self.kind = kind
        self.nonce = nonce
    }

    package init(from reader: inout TLSReader) throws {
        switch try reader.readUInt8() {
        case 1: kind = .external(pskID: try reader.readOpaque())
        case 2:
            let usage = try reader.readUInt8()
            kind = .resumption(usage: usage, groupID: try reader.readOpaque(), epoch: try reader.readUInt64())
        case let t: throw MLSError(.invalidValue, "psktype \(t)")
        }
        nonce = try reader.readOpaque()
    }

    package func encode(to writer: inout TLSWriter) {
        switch kind {
        case .external(let id):
            writer.writeUInt8(1)
            writer.writeOpaque(id)
        case .resumption(let usage, let groupID, let epoch):
            writer.writeUInt8(2)
            writer.writeUInt8(usage)
            writer.writeOpaque(groupID)
            writer.writeUInt64(epoch)
        }
        writer.writeOpaque(nonce)
    }
}
