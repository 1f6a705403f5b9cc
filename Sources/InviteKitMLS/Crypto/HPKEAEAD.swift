import InviteKitCrypto

/// The AEADs MLS suites 1 and 3 use, with their HPKE identifiers (RFC 9180 §7.3).
package enum HPKEAEAD: Sendable, Hashable {
    case aes128gcm
    case chacha20poly1305

    /// `aead_id`.
    package var id: UInt16 { self == .aes128gcm ? 0x0001 : 0x0003 }
    /// `Nk`.
    package var keyCount: Int { self == .aes128gcm ? 16 : 32 }
    /// `Nn`.
    package var nonceCount: Int { 12 }

    package func seal<P: ContiguousBytes, K: ContiguousBytes>(_ plaintext: P, key: K, nonce: [UInt8], aad: [UInt8]) throws -> [UInt8] {
        switch self {
        case .aes128gcm: return try AES128GCM.seal(plaintext, key: key, nonce: nonce, aad: aad)
        case .chacha20poly1305: return try ChaChaPoly.seal(plaintext, key: key, nonce: nonce, aad: aad)
        }
    }

    package func open<K: ContiguousBytes>(_ sealed: [UInt8], key: K, nonce: [UInt8], aad: [UInt8]) throws -> [UInt8] {
        do {
            switch self {
            case .aes128gcm: return try AES128GCM.open(sealed, key: key, nonce: nonce, aad: aad)
            case .chacha20poly1305: return try ChaChaPoly.open(sealed, key: key, nonce: nonce, aad: aad)
            }
        } catch {
            throw MLSError(.decryptionFailed, "AEAD open failed")
        }
    }
}
