/// `CipherSuite` (RFC 9420 §17.1): a uint16 registry value.
package struct CipherSuite: RawRepresentable, Hashable, Sendable, TLSCodable, CustomStringConvertible {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519, Marmot's required suite.
    package static let x25519Aes128GcmSha256Ed25519 = CipherSuite(rawValue: 0x0001)
    /// MLS_128_DHKEMP256_AES128GCM_SHA256_P256 (parsed, not implemented).
    package static let p256Aes128GcmSha256P256 = CipherSuite(rawValue: 0x0002)
    /// MLS_128_DHKEMX25519_CHACHA20POLY1305_SHA256_Ed25519.
    package static let x25519ChaCha20Poly1305Sha256Ed25519 = CipherSuite(rawValue: 0x0003)

    /// The suite's `SignatureScheme` (RFC 9420 §17.1; TLS 1.3 registry): Ed25519 `0x0807` for
    /// 0x0001 and 0x0003, ECDSA P-256 `0x0403` for 0x0002.
    package var signatureScheme: UInt16 {
        switch rawValue {
        case 0x0002: return 0x0403
        default: return 0x0807
        }
    }

    /// `0x0001` style, as Marmot tags write it.
    package var description: String {
        let h = String(rawValue, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - h.count)) + h
    }

    package init(from reader: inout TLSReader) throws { rawValue = try reader.readUInt16() }
    package func encode(to writer: inout TLSWriter) { writer.writeUInt16(rawValue) }
}
