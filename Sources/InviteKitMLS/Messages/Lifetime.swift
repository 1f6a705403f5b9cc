/// `Lifetime` (RFC 9420 §7.2): seconds since the Unix epoch, both inclusive.
package struct Lifetime: Hashable, Sendable, TLSCodable {
    package var notBefore: UInt64
    package var notAfter: UInt64

    package init(notBefore: UInt64, notAfter: UInt64) {
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    package init(from reader: inout TLSReader) throws {
        notBefore = try reader.readUInt64()
        notAfter = try reader.readUInt64()
    }

    package func encode(to writer: inout TLSWriter) {
        writer.writeUInt64(notBefore)
        writer.writeUInt64(notAfter)
    }
}
