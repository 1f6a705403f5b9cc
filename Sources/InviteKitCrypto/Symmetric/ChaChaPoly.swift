internal import CSodium

/// ChaCha20-Poly1305 AEAD, IETF variant (RFC 8439 §2.8): 32-byte key, 12-byte nonce, 16-byte tag.
public enum ChaChaPoly {
    public static let keyByteCount = 32
    public static let nonceByteCount = 12
    public static let tagByteCount = 16

    /// Returns ciphertext || tag.
    public static func seal<P: ContiguousBytes, K: ContiguousBytes, A: ContiguousBytes>(
        _ plaintext: P, key: K, nonce: [UInt8], aad: A
    ) throws -> [UInt8] {
        guard nonce.count == nonceByteCount else { throw CryptoError(.invalidLength, "ChaCha20-Poly1305 nonce must be 12 bytes") }
        return try key.withUnsafeBytes { k in
            guard k.count == keyByteCount else { throw CryptoError(.invalidLength, "ChaCha20-Poly1305 key must be 32 bytes") }
            return plaintext.withUnsafeBytes { p in
                aad.withUnsafeBytes { a in
                    var out = [UInt8](repeating: 0, count: p.count + tagByteCount)
                    var outLen: UInt64 = 0
                    _ = crypto_aead_chacha20poly1305_ietf_encrypt(
                        &out, &outLen, p.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(p.count),
                        a.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(a.count), nil, nonce,
                        k.baseAddress!.assumingMemoryBound(to: UInt8.self))
                    return out
                }
            }
        }
    }

    /// Opens ciphertext || tag; the tag is checked (in constant time, by libsodium) before any
    /// plaintext is released.
    public static func open<C: ContiguousBytes, K: ContiguousBytes, A: ContiguousBytes>(
        _ sealed: C, key: K, nonce: [UInt8], aad: A
    ) throws -> [UInt8] {
        guard nonce.count == nonceByteCount else { throw CryptoError(.invalidLength, "ChaCha20-Poly1305 nonce must be 12 bytes") }
        return try key.withUnsafeBytes { k in
            guard k.count == keyByteCount else { throw CryptoError(.invalidLength, "ChaCha20-Poly1305 key must be 32 bytes") }
            return try sealed.withUnsafeBytes { c in
                guard c.count >= tagByteCount else { throw CryptoError(.invalidLength, "ciphertext shorter than the tag") }
                return try aad.withUnsafeBytes { a in
                    var out = [UInt8](repeating: 0, count: c.count - tagByteCount)
                    var outLen: UInt64 = 0
                    let rc = crypto_aead_chacha20poly1305_ietf_decrypt(
                        &out, &outLen, nil, c.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(c.count),
                        a.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(a.count), nonce,
                        k.baseAddress!.assumingMemoryBound(to: UInt8.self))
                    guard rc == 0 else { throw CryptoError(.authenticationFailed, "ChaCha20-Poly1305 tag mismatch") }
                    return out
                }
            }
        }
    }
}
