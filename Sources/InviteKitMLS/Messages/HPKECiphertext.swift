/// `HPKECiphertext` (RFC 9420 §5.1.3): `opaque kem_output<V>; opaque ciphertext<V>;`.
package struct HPKECiphertext: Hashable, Sendable, TLSCodable {
    package var kemOutput: [UInt8]
    package var ciphertext: [UInt8]

    package init(kemOutput: [UInt8], ciphertext: [UInt8]) {
        self.kemOutput = kemOutput
        self.ciphertext = ciphertext
    }

    package init(from reader: inout TLSReader) throws {
        kemOutput = try reader.readOpaque()
        ciphertext = try reader.readOpaque()
    }

    package func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(kemOutput)
        writer.writeOpaque(ciphertext)
    }
}
