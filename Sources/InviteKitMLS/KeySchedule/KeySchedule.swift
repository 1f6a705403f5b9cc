import InviteKitCrypto

/// The RFC 9420 key schedule (§8) for cipher suites 0x0001 and 0x0003 (HKDF-SHA256, `KDF.Nh` = 32).
///
/// Marmot uses no pre-shared keys, so `psk_secret` is the all-zero string of `KDF.Nh` bytes, as
/// RFC 9420 §8 requires when no PSK proposals are in force.
package enum KeySchedule {
    /// Derives a new epoch from the previous epoch's `init_secret`, the commit's `commit_secret`
    /// (all zeros for a commit without a path) and the new epoch's serialized GroupContext
    /// (RFC 9420 §8).
    package static func nextEpoch<I: ContiguousBytes, C: ContiguousBytes>(initSecret: I, commitSecret: C, groupContext: [UInt8],
                                                                         suite: CipherSuite) throws -> EpochSecrets {
        try nextEpoch(initSecret: initSecret, commitSecret: commitSecret, pskSecret: nil, groupContext: groupContext, suite: suite)
    }

    /// As ``nextEpoch(initSecret:commitSecret:groupContext:suite:)`` with an explicit `psk_secret`
    /// (the conformance vectors use non-zero ones; `nil` means all zeros).
    package static func nextEpoch<I: ContiguousBytes, C: ContiguousBytes>(initSecret: I, commitSecret: C, pskSecret: SecureBytes?,
                                                                  groupContext: [UInt8], suite: CipherSuite) throws -> EpochSecrets {
        guard suite.isSupported else { throw MLSError(.unsupportedCipherSuite, suite.description) }
        let extracted = HKDF.extract(salt: initSecret, ikm: commitSecret)
        let joiner = MLSCrypto.expandWithLabel(secret: extracted, label: "joiner", context: groupContext, length: suite.hashLength)
        return try fromJoinerSecret(joiner, pskSecret: pskSecret, groupContext: groupContext, suite: suite)
    }

    /// Derives an epoch from a `joiner_secret`, as a new member does from a Welcome's GroupSecrets
    /// (RFC 9420 §8, §12.4.3.1). `groupContext` is the serialized GroupContext of that epoch.
    package static func fromJoinerSecret(_ joinerSecret: SecureBytes, groupContext: [UInt8], suite: CipherSuite) throws -> EpochSecrets {
        try fromJoinerSecret(joinerSecret, pskSecret: nil, groupContext: groupContext, suite: suite)
    }

    package static func fromJoinerSecret(_ joinerSecret: SecureBytes, pskSecret: SecureBytes?, groupContext: [UInt8],
                                 suite: CipherSuite) throws -> EpochSecrets {
        guard suite.isSupported else { throw MLSError(.unsupportedCipherSuite, suite.description) }
        let psk = pskSecret ?? SecureBytes(zeroedCount: suite.hashLength)
        let member = HKDF.extract(salt: joinerSecret, ikm: psk)
        let welcome = MLSCrypto.deriveSecret(secret: member, label: "welcome")
        let epoch = MLSCrypto.expandWithLabel(secret: member, label: "epoch", context: groupContext, length: suite.hashLength)
        return EpochSecrets(joinerSecret: joinerSecret, welcomeSecret: welcome, epochSecret: epoch)
    }

    /// `welcome_key` and `welcome_nonce` from a `welcome_secret` (RFC 9420 §12.4.3.1): they seal
    /// the GroupInfo of a Welcome with the suite's AEAD.
    package static func welcomeKeyAndNonce(welcomeSecret: SecureBytes, suite: CipherSuite) throws -> (key: SecureBytes, nonce: SecureBytes) {
        let aead = try suite.hpke().aead
        return (MLSCrypto.expandWithLabel(secret: welcomeSecret, label: "key", context: [], length: aead.keyCount),
                MLSCrypto.expandWithLabel(secret: welcomeSecret, label: "nonce", context: [], length: aead.nonceCount))
    }

    /// A fresh random `init_secret` for a group's first epoch (RFC 9420 §11: epoch 0 starts from a
    /// random `init_secret` and an all-zero `commit_secret`).
    package static func randomInitSecret(suite: CipherSuite, rng: RandomSource = SystemRandom()) -> SecureBytes {
        rng.secureBytes(suite.hashLength)
    }
}
