/// HKDF with SHA-256 (RFC 5869), built on ``HMACSHA256``.
///
/// Written over our HMAC rather than OpenSSL's EVP_KDF: the EVP path fetches a provider on
/// every call (microseconds), which NIP-44's per-message key derivation cannot afford.
public enum HKDF {
    /// HKDF-Extract (RFC 5869 §2.2). The result is a 32-byte pseudorandom key.
    public static func extract<S: ContiguousBytes, I: ContiguousBytes>(salt: S, ikm: I) -> SecureBytes {
        var mac = HMACSHA256(key: salt)
        mac.update(ikm)
        var prk = mac.finalize()
        defer { SecureBytes.wipe(&prk) }
        return SecureBytes(copying: prk)
    }

    /// HKDF-Expand (RFC 5869 §2.3). `count` must be at most 255 * 32.
    public static func expand<P: ContiguousBytes, I: ContiguousBytes>(prk: P, info: I, count: Int) -> SecureBytes {
        precondition(count >= 0 && count <= 255 * 32, "HKDF-Expand length out of range")
        let keyed = HMACSHA256(key: prk)
        return expand(keyed: keyed, info: info, count: count)
    }

    /// HKDF-Expand with an HMAC already keyed with the PRK (see ``HMACSHA256``).
    public static func expand<I: ContiguousBytes>(keyed: HMACSHA256, info: I, count: Int) -> SecureBytes {
        SecureBytes(count: count) { out in
            info.withUnsafeBytes { expand(keyed: keyed, info: $0, into: out) }
        }
    }

    /// HKDF-Expand into caller-owned memory (no allocation): fills all of `out`.
    public static func expand(keyed: HMACSHA256, info: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) {
        precondition(out.count <= 255 * 32, "HKDF-Expand length out of range")
        withUnsafeTemporaryAllocation(byteCount: 32, alignment: 8) { t in
            var offset = 0
            var counter: UInt8 = 1
            while offset < out.count {
                var mac = keyed
                if counter > 1 { mac.update(bufferPointer: UnsafeRawBufferPointer(t)) }
                mac.update(bufferPointer: info)
                withUnsafeBytes(of: counter) { mac.update(bufferPointer: $0) }
                mac.finalize(into: t)
                let n = min(32, out.count - offset)
                UnsafeMutableRawBufferPointer(rebasing: out[offset..<(offset + n)]).copyMemory(from: UnsafeRawBufferPointer(rebasing: t[0..<n]))
                offset += n
                counter &+= 1
            }
            t.initializeMemory(as: UInt8.self, repeating: 0)
        }
    }
}
