internal import CSecp256k1

extension Secp256k1 {
    /// BIP-340 Schnorr signatures over messages of any length
    /// ([BIP-340](https://github.com/bitcoin/bips/blob/master/bip-0340.mediawiki)).
    public enum Schnorr {
        public static let signatureByteCount = 64
    }
}

extension Secp256k1.PrivateKey {
    /// Signs `message` (any length). `auxiliaryRandomness` is BIP-340's 32-byte aux_rand;
    /// when `nil`, 32 bytes are drawn from `rng`.
    public func schnorrSignature<M: ContiguousBytes>(
        for message: M, auxiliaryRandomness: [UInt8]? = nil, using rng: RandomSource = SystemRandom()
    ) throws -> [UInt8] {
        let aux = auxiliaryRandomness ?? rng.bytes(32)
        guard aux.count == 32 else { throw CryptoError(.invalidLength, "aux_rand must be 32 bytes") }
        var sig = [UInt8](repeating: 0, count: 64)
        let ok = aux.withUnsafeBytes { auxp in
            message.withUnsafeBytes { m in
                withKeypair { kp in
                    var extra = secp256k1_schnorrsig_extraparams()
                    // SECP256K1_SCHNORRSIG_EXTRAPARAMS_MAGIC, spelled out: the macro is not importable.
                    extra.magic = (0xda, 0x6f, 0xb3, 0x8c)
                    extra.noncefp = nil
                    extra.ndata = UnsafeMutableRawPointer(mutating: auxp.baseAddress)
                    return secp256k1_schnorrsig_sign_custom(
                        Secp256k1.context, &sig, m.baseAddress?.assumingMemoryBound(to: UInt8.self), m.count, kp, &extra) == 1
                }
            }
        }
        guard ok else { throw CryptoError(.backendFailure, "schnorr signing failed") }
        return sig
    }
}

extension Secp256k1.XOnlyPublicKey {
    /// `true` when `signature` is a valid BIP-340 signature of `message` by this key.
    public func isValidSchnorrSignature<M: ContiguousBytes>(_ signature: [UInt8], for message: M) -> Bool {
        guard signature.count == 64 else { return false }
        var p = parsed
        return message.withUnsafeBytes { m in
            secp256k1_schnorrsig_verify(Secp256k1.context, signature, m.baseAddress?.assumingMemoryBound(to: UInt8.self), m.count, &p) == 1
        }
    }
}
