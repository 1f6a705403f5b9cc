/// `HPKECiphertext` (RFC 9420 §5.1.3): `opaque kem_output<V>; opaque ciphertext<V>;`.
public struct HPKECiphertext: Hashable, Sendable, TLSCodable {
    public var kemOutput: [UInt8]
    public var ciphertext: [UInt8]

    public init(kemOutput: [UInt8], ciphertext: [UInt8]) {
        self.kemOutput = kemOutput
        self.ciphertext = ciphertext
    }

    public init(from reader: inout TLSReader) throws {
        kemOutput = try reader.readOpaque()
        ciphertext = try reader.readOpaque()
    }

    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(kemOutput)
        writer.writeOpaque(ciphertext)
    }
}
