/// `ContentType` (RFC 9420 §6): a uint8; `reserved(0)` is rejected.
package enum ContentType: UInt8, Hashable, Sendable, TLSCodable {
    case application = 1
    case proposal = 2
    case commit = 3

    package init(from reader: inout TLSReader) throws {
        let raw = try reader.readUInt8()
        guard let t = ContentType(rawValue: raw) else { throw MLSError(.invalidValue, "content_type \(raw)") }
        self = t
    }

    package func encode(to writer: inout TLSWriter) { writer.writeUInt8(rawValue) }
}
