import InviteKitCrypto

/// The labeled primitives of RFC 9420 §5 for cipher suites 0x0001 and 0x0003 (SHA-256, HKDF-SHA256,
/// Ed25519, HPKE with X25519).
package enum MLSCrypto {
    static let labelPrefix = Array("MLS 1.0 ".utf8)

    /// `RefHash(label, value) = Hash(RefHashInput)` with `opaque label<V>; opaque value<V>;`
    /// (RFC 9420 §5.2). The label is used as given (it already reads "MLS 1.0 ...").
    package static func refHash(label: String, value: [UInt8]) -> [UInt8] {
        var w = TLSWriter(capacity: value.count + 64)
        w.writeOpaque(Array(label.utf8))
        w.writeOpaque(value)
        return SHA256.hash(w.bytes)
    }

    /// `KeyPackageRef = RefHash("MLS 1.0 KeyPackage Reference", KeyPackage)` (RFC 9420 §5.2).
    package static func keyPackageRef(_ keyPackage: KeyPackage) -> [UInt8] {
        refHash(label: "MLS 1.0 KeyPackage Reference", value: keyPackage.tlsSerialized)
    }

    /// `ExpandWithLabel(secret, label, context, length)` (RFC 9420 §8): HKDF-Expand with
    /// `KDFLabel { uint16 length; opaque label<V> = "MLS 1.0 " + label; opaque context<V>; }`.
    package static func expandWithLabel<S: ContiguousBytes>(secret: S, label: String, context: [UInt8], length: Int) -> SecureBytes {
        var w = TLSWriter(capacity: context.count + 32)
        w.writeUInt16(UInt16(length))
        w.writeOpaque(labelPrefix + Array(label.utf8))
        w.writeOpaque(context)
        return HKDF.expand(prk: secret, info: w.bytes, count: length)
    }

    /// `DeriveSecret(secret, label) = ExpandWithLabel(secret, label, "", Nh)` (RFC 9420 §8).
    package static func deriveSecret<S: ContiguousBytes>(secret: S, label: String) -> SecureBytes {
        expandWithLabel(secret: secret, label: label, context: [], length: 32)
    }

    /// `DeriveTreeSecret(secret, label, generation, length)` (RFC 9420 §9.1).
    package static func deriveTreeSecret<S: ContiguousBytes>(secret: S, label: String, generation: UInt32, length: Int) -> SecureBytes {
        var w = TLSWriter(capacity: 4)
        w.writeUInt32(generation)
        return expandWithLabel(secret: secret, label: label, context: w.bytes, length: length)
    }

    /// `SignContent { opaque label<V> = "MLS 1.0 " + label; opaque content<V>; }` (RFC 9420 §5.1.2).
    static func signContent(label: String, content: [UInt8]) -> [UInt8] {
        var w = TLSWriter(capacity: content.count + 48)
        w.writeOpaque(labelPrefix + Array(label.utf8))
        w.writeOpaque(content)
        return w.bytes
    }

    /// `SignWithLabel(key, label, content)` with Ed25519 (RFC 9420 §5.1.2).
    package static func signWithLabel(_ key: Ed25519.PrivateKey, label: String, content: [UInt8]) -> [UInt8] {
        key.signature(for: signContent(label: label, content: content))
    }

    /// `VerifyWithLabel(key, label, content, signature)` with Ed25519 (RFC 9420 §5.1.2).
    package static func verifyWithLabel(publicKey: [UInt8], label: String, content: [UInt8], signature: [UInt8]) -> Bool {
        Ed25519.isValidSignature(signature, for: signContent(label: label, content: content), publicKey: publicKey)
    }

    /// `EncryptContext { opaque label<V> = "MLS 1.0 " + label; opaque context<V>; }` (RFC 9420 §5.1.3).
    static func encryptContext(label: String, context: [UInt8]) -> [UInt8] {
        var w = TLSWriter(capacity: context.count + 48)
        w.writeOpaque(labelPrefix + Array(label.utf8))
        w.writeOpaque(context)
        return w.bytes
    }

    /// `EncryptWithLabel(pk, label, context, plaintext) = SealBase(pk, EncryptContext, "", plaintext)`
    /// (RFC 9420 §5.1.3).
    package static func encryptWithLabel<P: ContiguousBytes>(suite: CipherSuite, publicKey: [UInt8], label: String, context: [UInt8],
                                                            plaintext: P, rng: RandomSource = SystemRandom()) throws -> HPKECiphertext {
        let hpke = try suite.hpke()
        let (enc, ct) = try hpke.sealBase(publicKey: publicKey, info: encryptContext(label: label, context: context),
                                          aad: [], plaintext: plaintext, rng: rng)
        return HPKECiphertext(kemOutput: enc, ciphertext: ct)
    }

    /// `DecryptWithLabel(sk, label, context, kem_output, ciphertext)` (RFC 9420 §5.1.3).
    package static func decryptWithLabel(suite: CipherSuite, privateKey: X25519.PrivateKey, label: String, context: [UInt8],
                                        ciphertext: HPKECiphertext) throws -> [UInt8] {
        let hpke = try suite.hpke()
        return try hpke.openBase(enc: ciphertext.kemOutput, privateKey: privateKey,
                                 info: encryptContext(label: label, context: context), aad: [], ciphertext: ciphertext.ciphertext)
    }
}
