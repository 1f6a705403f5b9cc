internal import CSodium

/// ChaCha20 stream cipher, IETF variant (RFC 8439 §2.4): 32-byte key, 12-byte nonce.
public enum ChaCha20 {
    /// XORs `input` with the keystream starting at block `counter`.
    public static func xor<I: ContiguousBytes, K: ContiguousBytes>(
        _ input: I, key: K, nonce: [UInt8], counter: UInt32 = 0
    ) throws -> [UInt8] {
        try input.withUnsafeBytes { src in
            var out = [UInt8](repeating: 0, count: src.count)
            try out.withUnsafeMutableBytes { try xor(src, into: $0, key: key, nonce: nonce, counter: counter) }
            return out
        }
    }

    /// XORs `input` into `output` (same length; may alias).
    public static func xor<K: ContiguousBytes>(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
        key: K, nonce: [UInt8], counter: UInt32 = 0
    ) throws {
        try nonce.withUnsafeBytes { try xor(input, into: output, key: key, nonceBuffer: $0, counter: counter) }
    }

    /// As ``xor(_:into:key:nonce:counter:)`` with the nonce borrowed rather than copied.
    public static func xor<K: ContiguousBytes>(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
        key: K, nonceBuffer nonce: UnsafeRawBufferPointer, counter: UInt32 = 0
    ) throws {
        guard nonce.count == 12 else { throw CryptoError(.invalidLength, "ChaCha20 nonce must be 12 bytes") }
        guard output.count >= input.count else { throw CryptoError(.invalidLength, "output buffer too small") }
        try key.withUnsafeBytes { k in
            guard k.count == 32 else { throw CryptoError(.invalidLength, "ChaCha20 key must be 32 bytes") }
            guard input.count > 0 else { return }
            _ = crypto_stream_chacha20_ietf_xor_ic(
                output.baseAddress!.assumingMemoryBound(to: UInt8.self),
                input.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(input.count),
                nonce.baseAddress!.assumingMemoryBound(to: UInt8.self), counter, k.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
    }
}
