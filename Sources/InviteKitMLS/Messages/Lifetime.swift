/// `Lifetime` (RFC 9420 §7.2): seconds since the Unix epoch, both inclusive.
public struct Lifetime: Hashable, Sendable, TLSCodable {
    public var notBefore: UInt64
    public var notAfter: UInt64

    public init(notBefore: UInt64, notAfter: UInt64) {
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    public init(from reader: inout TLSReader) throws {
        notBefore = try reader.readUInt64()
        notAfter = try reader.readUInt64()
    }

    public func encode(to writer: inout TLSWriter) {
        writer.writeUInt64(notBefore)
        writer.writeUInt64(notAfter)
    }
}
