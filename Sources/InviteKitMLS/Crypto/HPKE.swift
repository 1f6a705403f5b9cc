import InviteKitCrypto

/// HPKE (RFC 9180) base mode with DHKEM(X25519, HKDF-SHA256) and HKDF-SHA256, single-shot.
///
/// The sender's ephemeral key comes from an injectable ``RandomSource`` so that ciphertexts can
/// be replayed from a seed.
package struct HPKE: Sendable {
    /// DHKEM(X25519, HKDF-SHA256) (RFC 9180 §7.1).
    package static let kemID: UInt16 = 0x0020
    /// HKDF-SHA256 (RFC 9180 §7.2).
    package static let kdfID: UInt16 = 0x0001

    package let aead: HPKEAEAD
    private let suiteID: [UInt8]
    private static let kemSuiteID: [UInt8] = Array("KEM".utf8) + [0x00, 0x20]
    private static let version: [UInt8] = Array("HPKE-v1".utf8)

    package init(aead: HPKEAEAD) {
        self.aead = aead
        suiteID = Array("HPKE".utf8) + [0x00, 0x20, 0x00, 0x01, UInt8(aead.id >> 8), UInt8(aead.id & 0xff)]
    }

    // MARK: labeled KDF (RFC 9180 §4)

    static func labeledExtract<S: ContiguousBytes, I: ContiguousBytes>(suite: [UInt8], salt: S, label: String, ikm: I) -> SecureBytes {
        var input = version + suite + Array(label.utf8)
        ikm.withUnsafeBytes { input.append(contentsOf: $0) }
        defer { zeroize(&input) }
        return HKDF.extract(salt: salt, ikm: input)
    }

    static func labeledExpand<P: ContiguousBytes>(suite: [UInt8], prk: P, label: String, info: [UInt8], count: Int) -> SecureBytes {
        let labeled = [UInt8(count >> 8), UInt8(count & 0xff)] + version + suite + Array(label.utf8) + info
        return HKDF.expand(prk: prk, info: labeled, count: count)
    }

    // MARK: DHKEM (RFC 9180 §4.1)

    private static func extractAndExpand(dh: SecureBytes, kemContext: [UInt8]) -> SecureBytes {
        let prk = labeledExtract(suite: kemSuiteID, salt: [UInt8](), label: "eae_prk", ikm: dh)
        return labeledExpand(suite: kemSuiteID, prk: prk, label: "shared_secret", info: kemContext, count: 32)
    }

    /// `Encap(pkR)`: returns the shared secret and `enc` (the ephemeral public key).
    package static func encap(publicKey pkR: [UInt8], rng: RandomSource) throws -> (sharedSecret: SecureBytes, enc: [UInt8]) {
        let ephemeral = X25519.PrivateKey(using: rng)
        let dh: SecureBytes
        do { dh = try ephemeral.sharedSecret(with: pkR) } catch { throw MLSError(.invalidKey, "HPKE recipient key rejected") }
        let enc = ephemeral.publicKey
        return (extractAndExpand(dh: dh, kemContext: enc + pkR), enc)
    }

    /// `Decap(enc, skR)`.
    package static func decap(enc: [UInt8], privateKey skR: X25519.PrivateKey) throws -> SecureBytes {
        let dh: SecureBytes
        do { dh = try skR.sharedSecret(with: enc) } catch { throw MLSError(.invalidKey, "HPKE encapsulated key rejected") }
        return extractAndExpand(dh: dh, kemContext: enc + skR.publicKey)
    }

    /// `DeriveKeyPair(ikm)` for X25519 (RFC 9180 §7.1.3): a private key from seed material.
    package static func deriveKeyPair<I: ContiguousBytes>(ikm: I) throws -> X25519.PrivateKey {
        let prk = labeledExtract(suite: kemSuiteID, salt: [UInt8](), label: "dkp_prk", ikm: ikm)
        let sk = labeledExpand(suite: kemSuiteID, prk: prk, label: "sk", info: [], count: 32)
        return try X25519.PrivateKey(rawRepresentation: sk)
    }

    // MARK: key schedule (RFC 9180 §5.1), base mode

    /// A single-use encryption context: key, base nonce, exporter secret.
    package struct Context: Sendable {
        let aead: HPKEAEAD
        let key: SecureBytes
        let baseNonce: [UInt8]
        let exporterSecret: SecureBytes
        let suiteID: [UInt8]

        /// Seals with sequence number 0 (single-shot).
        package func seal<P: ContiguousBytes>(aad: [UInt8], plaintext: P) throws -> [UInt8] {
            try aead.seal(plaintext, key: key, nonce: baseNonce, aad: aad)
        }

        /// Opens with sequence number 0 (single-shot).
        package func open(aad: [UInt8], ciphertext: [UInt8]) throws -> [UInt8] {
            try aead.open(ciphertext, key: key, nonce: baseNonce, aad: aad)
        }

        /// `Export(exporter_context, L)` (RFC 9180 §5.3).
        package func export(context: [UInt8], count: Int) -> SecureBytes {
            HPKE.labeledExpand(suite: suiteID, prk: exporterSecret, label: "sec", info: context, count: count)
        }
    }

    /// `key_schedule_context = mode_base || psk_id_hash || info_hash` (RFC 9180 §5.1). It depends
    /// only on `info`, so a sender sealing to many recipients computes it once.
    package func keyScheduleContext(info: [UInt8]) -> [UInt8] {
        let pskIDHash = Self.labeledExtract(suite: suiteID, salt: [UInt8](), label: "psk_id_hash", ikm: [UInt8]())
        let infoHash = Self.labeledExtract(suite: suiteID, salt: [UInt8](), label: "info_hash", ikm: info)
        var context: [UInt8] = [0x00]  // mode_base
        pskIDHash.withUnsafeBytes { context.append(contentsOf: $0) }
        infoHash.withUnsafeBytes { context.append(contentsOf: $0) }
        return context
    }

    private func keySchedule(sharedSecret: SecureBytes, info: [UInt8]) -> Context {
        keySchedule(sharedSecret: sharedSecret, context: keyScheduleContext(info: info))
    }

    private func keySchedule(sharedSecret: SecureBytes, context: [UInt8]) -> Context {
        let secret = Self.labeledExtract(suite: suiteID, salt: sharedSecret, label: "secret", ikm: [UInt8]())
        let key = Self.labeledExpand(suite: suiteID, prk: secret, label: "key", info: context, count: aead.keyCount)
        let nonce = Self.labeledExpand(suite: suiteID, prk: secret, label: "base_nonce", info: context, count: aead.nonceCount)
        let exp = Self.labeledExpand(suite: suiteID, prk: secret, label: "exp", info: context, count: 32)
        return Context(aead: aead, key: key, baseNonce: nonce.exportBytes(), exporterSecret: exp, suiteID: suiteID)
    }

    /// `SetupBaseS(pkR, info)`.
    package func setupBaseSender(publicKey: [UInt8], info: [UInt8], rng: RandomSource) throws -> (enc: [UInt8], context: Context) {
        let (ss, enc) = try Self.encap(publicKey: publicKey, rng: rng)
        return (enc, keySchedule(sharedSecret: ss, info: info))
    }

    /// `SetupBaseR(enc, skR, info)`.
    package func setupBaseReceiver(enc: [UInt8], privateKey: X25519.PrivateKey, info: [UInt8]) throws -> Context {
        let ss = try Self.decap(enc: enc, privateKey: privateKey)
        return keySchedule(sharedSecret: ss, info: info)
    }

    /// `SealBase(pkR, info, aad, pt)`.
    package func sealBase<P: ContiguousBytes>(publicKey: [UInt8], info: [UInt8], aad: [UInt8], plaintext: P,
                         rng: RandomSource = SystemRandom()) throws -> (enc: [UInt8], ciphertext: [UInt8]) {
        let (enc, ctx) = try setupBaseSender(publicKey: publicKey, info: info, rng: rng)
        return (enc, try ctx.seal(aad: aad, plaintext: plaintext))
    }

    /// `SealBase` with a precomputed ``keyScheduleContext(info:)`` and a given ephemeral key
    /// (drawn by the caller, so that many seals can run in parallel and still replay from a seed).
    package func sealBase<P: ContiguousBytes>(publicKey: [UInt8], keyScheduleContext: [UInt8], ephemeral: X25519.PrivateKey, aad: [UInt8],
                         plaintext: P) throws -> (enc: [UInt8], ciphertext: [UInt8]) {
        let dh: SecureBytes
        do { dh = try ephemeral.sharedSecret(with: publicKey) } catch { throw MLSError(.invalidKey, "HPKE recipient key rejected") }
        let enc = ephemeral.publicKey
        let ss = Self.extractAndExpand(dh: dh, kemContext: enc + publicKey)
        return (enc, try keySchedule(sharedSecret: ss, context: keyScheduleContext).seal(aad: aad, plaintext: plaintext))
    }

    /// `OpenBase(enc, skR, info, aad, ct)`.
    package func openBase(enc: [UInt8], privateKey: X25519.PrivateKey, info: [UInt8], aad: [UInt8], ciphertext: [UInt8]) throws -> [UInt8] {
        let ctx = try setupBaseReceiver(enc: enc, privateKey: privateKey, info: info)
        return try ctx.open(aad: aad, ciphertext: ciphertext)
    }
}
