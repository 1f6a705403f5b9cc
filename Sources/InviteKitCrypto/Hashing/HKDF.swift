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
        defer { wipe(&prk) }
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
        precondition(count >= 0 && count <= 255 * 32, "HKDF-Expand length out of range")
        return SecureBytes(count: count) { out in
            var previous = [UInt8]()
            var offset = 0
            var counter: UInt8 = 1
            while offset < count {
                var mac = keyed
                mac.update(previous)
                mac.update(info)
                mac.update([counter])
                wipe(&previous)
                previous = mac.finalize()
                let n = min(32, count - offset)
                for i in 0..<n { out[offset + i] = previous[i] }
                offset += n
                counter &+= 1
            }
            wipe(&previous)
        }
    }
}
