import InviteKitCrypto

extension CipherSuite {
    /// `true` for the suites this package implements: 0x0001 and 0x0003 (X25519, SHA-256, Ed25519).
    package var isSupported: Bool { self == .x25519Aes128GcmSha256Ed25519 || self == .x25519ChaCha20Poly1305Sha256Ed25519 }

    /// The suite's HPKE instance, or an error for unsupported suites.
    package func hpke() throws -> HPKE {
        switch self {
        case .x25519Aes128GcmSha256Ed25519: return HPKE(aead: .aes128gcm)
        case .x25519ChaCha20Poly1305Sha256Ed25519: return HPKE(aead: .chacha20poly1305)
        default: throw MLSError(.unsupportedCipherSuite, description)
        }
    }

    /// `KDF.Nh`: 32 for both supported suites.
    package var hashLength: Int { 32 }
}
