import InviteKitCrypto

/// NIP-44 version 2 encryption ([NIP-44](https://github.com/nostr-protocol/nips/blob/master/44.md)),
/// with the extended length prefix of nips PR #1907 for plaintexts of 65536 bytes or more.
public enum NIP44 {
    static let salt = Array("nip44-v2".utf8)
    public static let version: UInt8 = 2
    /// Plaintexts up to this size are accepted (the extended prefix would allow 2^32-1; the cap
    /// bounds memory for input from strangers).
    public static let maxPlaintextBytes = 16 * 1024 * 1024

    /// The padded length for a plaintext of `length` bytes (NIP-44 `calc_padded_len`).
    public static func paddedLength(_ length: Int) -> Int {
        if length <= 32 { return 32 }
        var nextPower = 1
        while nextPower < length { nextPower <<= 1 }  // 1 << (floor(log2(len - 1)) + 1)
        let chunk = nextPower <= 256 ? 32 : nextPower / 8
        return chunk * ((length - 1) / chunk + 1)
    }

    /// Length prefix size: 2 (u16) below 65536, 6 (`00 00` + u32) from 65536 on.
    public static func prefixLength(_ length: Int) -> Int { length < 65536 ? 2 : 6 }

    /// Encrypts `plaintext` and returns the base64 payload. `nonce` (32 bytes) is for replaying
    /// vectors; by default it is drawn from `rng`.
    public static func encrypt<P: ContiguousBytes>(
        _ plaintext: P, conversationKey: ConversationKey, nonce: [UInt8]? = nil, using rng: RandomSource = SystemRandom()
    ) throws(NostrError) -> String {
        let n = nonce ?? rng.bytes(32)
        guard n.count == 32 else { throw NostrError(.invalidPayload, "nonce must be 32 bytes") }
        let length = plaintext.withUnsafeBytes { $0.count }
        guard length >= 1, length <= maxPlaintextBytes else {
            throw NostrError(.invalidPlaintextLength, "plaintext must be 1...\(maxPlaintextBytes) bytes, got \(length)")
        }
        let prefix = prefixLength(length)
        let padded = paddedLength(length)
        // payload = 0x02 | nonce | ciphertext | mac, built in place.
        var payload = [UInt8](repeating: 0, count: 1 + 32 + prefix + padded + 32)
        payload[0] = version
        payload.replaceSubrange(1..<33, with: n)
        if prefix == 2 {
            payload[33] = UInt8(length >> 8); payload[34] = UInt8(length & 0xff)
        } else {
            payload[35] = UInt8(length >> 24 & 0xff); payload[36] = UInt8(length >> 16 & 0xff)
            payload[37] = UInt8(length >> 8 & 0xff); payload[38] = UInt8(length & 0xff)
        }
        let ctStart = 33, ctEnd = 33 + prefix + padded
        plaintext.withUnsafeBytes { p in
            payload.withUnsafeMutableBytes { out in
                UnsafeMutableRawBufferPointer(rebasing: out[(ctStart + prefix)...]).copyMemory(from: p)
            }
        }
        payload.withUnsafeMutableBytes { out in
            conversationKey.withMessageKeys(nonce: UnsafeRawBufferPointer(rebasing: out[1..<33])) { m in
                let region = UnsafeMutableRawBufferPointer(rebasing: out[ctStart..<ctEnd])
                try! ChaCha20.xor(UnsafeRawBufferPointer(region), into: region,
                                  key: UnsafeRawBufferPointer(rebasing: m[0..<32]), nonceBuffer: UnsafeRawBufferPointer(rebasing: m[32..<44]))
                var mac = HMACSHA256(keyBuffer: UnsafeRawBufferPointer(rebasing: m[44..<76]))
                mac.update(bufferPointer: UnsafeRawBufferPointer(rebasing: out[1..<ctEnd]))
                mac.finalize(into: UnsafeMutableRawBufferPointer(rebasing: out[ctEnd...]))
            }
        }
        return Base64.encode(payload)
    }

    /// Convenience: derives the conversation key, then encrypts.
    public static func encrypt<P: ContiguousBytes>(
        _ plaintext: P, from sender: Secp256k1.PrivateKey, to recipient: Secp256k1.XOnlyPublicKey, using rng: RandomSource = SystemRandom()
    ) throws(NostrError) -> String {
        try encrypt(plaintext, conversationKey: ConversationKey(privateKey: sender, publicKey: recipient), using: rng)
    }

    /// Decrypts a payload, in NIP-44's order: version marker, sizes, MAC (constant time, before
    /// any decryption), then the exact padding and length checks.
    public static func decrypt(_ payload: String, conversationKey: ConversationKey) throws(NostrError) -> [UInt8] {
        let utf8 = payload.utf8
        guard let first = utf8.first else { throw NostrError(.invalidPayload, "empty payload") }
        if first == UInt8(ascii: "#") { throw NostrError(.unsupportedVersion, "unsupported encryption version") }
        guard utf8.count >= 132 else { throw NostrError(.invalidPayload, "payload shorter than 132 characters") }
        let maxChars = (1 + 32 + 6 + paddedLength(maxPlaintextBytes) + 32 + 2) / 3 * 4
        guard utf8.count <= maxChars else { throw NostrError(.invalidPayload, "payload longer than the \(maxPlaintextBytes)-byte plaintext cap") }
        guard var data = Base64.decode(payload) else { throw NostrError(.invalidPayload, "payload is not valid base64") }
        guard data.count >= 99 else { throw NostrError(.invalidPayload, "decoded payload shorter than 99 bytes") }
        guard data[0] == version else { throw NostrError(.unsupportedVersion, "unknown version \(data[0])") }
        let ctEnd = data.count - 32
        let macOK = data.withUnsafeMutableBytes { d in
            conversationKey.withMessageKeys(nonce: UnsafeRawBufferPointer(rebasing: d[1..<33])) { m -> Bool in
                var mac = HMACSHA256(keyBuffer: UnsafeRawBufferPointer(rebasing: m[44..<76]))
                mac.update(bufferPointer: UnsafeRawBufferPointer(rebasing: d[1..<ctEnd]))
                let ok = withUnsafeTemporaryAllocation(byteCount: 32, alignment: 8) { t in
                    mac.finalize(into: t)
                    return ConstantTime.equals(UnsafeRawBufferPointer(t), UnsafeRawBufferPointer(rebasing: d[ctEnd...]))
                }
                // The MAC is checked before anything is decrypted.
                guard ok else { return false }
                let region = UnsafeMutableRawBufferPointer(rebasing: d[33..<ctEnd])
                try! ChaCha20.xor(UnsafeRawBufferPointer(region), into: region,
                                  key: UnsafeRawBufferPointer(rebasing: m[0..<32]), nonceBuffer: UnsafeRawBufferPointer(rebasing: m[32..<44]))
                return true
            }
        }
        guard macOK else { throw NostrError(.invalidMAC, "invalid MAC") }
        return try unpad(data[33..<ctEnd])
    }

    public static func decrypt(_ payload: String, recipient: Secp256k1.PrivateKey, sender: Secp256k1.XOnlyPublicKey) throws(NostrError) -> [UInt8] {
        try decrypt(payload, conversationKey: ConversationKey(privateKey: recipient, publicKey: sender))
    }

    static func unpad(_ padded: ArraySlice<UInt8>) throws(NostrError) -> [UInt8] {
        let b = padded.startIndex
        guard padded.count >= 2 else { throw NostrError(.invalidPadding, "padded plaintext too short") }
        var length = Int(padded[b]) << 8 | Int(padded[b + 1])
        var prefix = 2
        if length == 0 {
            // Extended form: 00 00 | u32 BE, valid only for lengths of 65536 and more.
            guard padded.count >= 6 else { throw NostrError(.invalidPadding, "padded plaintext too short") }
            length = Int(padded[b + 2]) << 24 | Int(padded[b + 3]) << 16 | Int(padded[b + 4]) << 8 | Int(padded[b + 5])
            guard length >= 65536 else { throw NostrError(.invalidPlaintextLength, "invalid plaintext length") }
            prefix = 6
        }
        guard length >= 1, length <= maxPlaintextBytes, padded.count == prefix + paddedLength(length) else {
            throw NostrError(.invalidPadding, "invalid padding")
        }
        return Array(padded[(b + prefix)..<(b + prefix + length)])
    }
}
