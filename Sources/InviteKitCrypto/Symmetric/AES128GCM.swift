internal import COpenSSL

/// AES-128-GCM (NIST SP 800-38D) through OpenSSL: 16-byte key, 12-byte nonce, 16-byte tag.
public enum AES128GCM {
    public static let keyByteCount = 16
    public static let nonceByteCount = 12
    public static let tagByteCount = 16

    /// Returns ciphertext || tag.
    public static func seal<P: ContiguousBytes, K: ContiguousBytes, A: ContiguousBytes>(
        _ plaintext: P, key: K, nonce: [UInt8], aad: A
    ) throws -> [UInt8] {
        try run(encrypt: true, input: plaintext, key: key, nonce: nonce, aad: aad)
    }

    /// Opens ciphertext || tag; OpenSSL checks the tag before the result is returned.
    public static func open<C: ContiguousBytes, K: ContiguousBytes, A: ContiguousBytes>(
        _ sealed: C, key: K, nonce: [UInt8], aad: A
    ) throws -> [UInt8] {
        try run(encrypt: false, input: sealed, key: key, nonce: nonce, aad: aad)
    }

    private static func run<I: ContiguousBytes, K: ContiguousBytes, A: ContiguousBytes>(
        encrypt: Bool, input: I, key: K, nonce: [UInt8], aad: A
    ) throws -> [UInt8] {
        guard nonce.count == nonceByteCount else { throw CryptoError(.invalidLength, "AES-GCM nonce must be 12 bytes") }
        guard let ctx = EVP_CIPHER_CTX_new() else { throw CryptoError(.backendFailure, "EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(ctx) }
        return try key.withUnsafeBytes { k in
            guard k.count == keyByteCount else { throw CryptoError(.invalidLength, "AES-128-GCM key must be 16 bytes") }
            let kp = k.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let ok = EVP_CipherInit_ex(ctx, EVP_aes_128_gcm(), nil, kp, nonce, encrypt ? 1 : 0)
            guard ok == 1 else { throw CryptoError(.backendFailure, "EVP_CipherInit_ex") }
            return try input.withUnsafeBytes { inp in
                try aad.withUnsafeBytes { a in
                    var len: Int32 = 0
                    if a.count > 0 {
                        guard EVP_CipherUpdate(ctx, nil, &len, a.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(a.count)) == 1
                        else { throw CryptoError(.backendFailure, "AAD") }
                    }
                    let body = encrypt ? inp.count : inp.count - tagByteCount
                    guard body >= 0 else { throw CryptoError(.invalidLength, "ciphertext shorter than the tag") }
                    var out = [UInt8](repeating: 0, count: body + (encrypt ? tagByteCount : 0))
                    if body > 0 {
                        guard EVP_CipherUpdate(ctx, &out, &len, inp.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(body)) == 1
                        else { throw CryptoError(.backendFailure, "update") }
                    }
                    if !encrypt {
                        var tag = Array(inp[body...])
                        guard EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, Int32(tagByteCount), &tag) == 1
                        else { throw CryptoError(.backendFailure, "set tag") }
                    }
                    var tail = [UInt8](repeating: 0, count: 16)
                    guard EVP_CipherFinal_ex(ctx, &tail, &len) == 1 else {
                        throw CryptoError(.authenticationFailed, "AES-GCM tag mismatch")
                    }
                    if encrypt {
                        var tag = [UInt8](repeating: 0, count: tagByteCount)
                        guard EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, Int32(tagByteCount), &tag) == 1
                        else { throw CryptoError(.backendFailure, "get tag") }
                        out.replaceSubrange(body..., with: tag)
                    }
                    return out
                }
            }
        }
    }
}
