internal import CSodium

/// Ed25519 signatures (RFC 8032), pure mode.
public enum Ed25519 {
    /// An Ed25519 private key held as its 32-byte seed (plus libsodium's expanded form).
    public struct PrivateKey: Sendable {
        let expanded: SecureBytes  // libsodium's 64-byte seed || public key
        /// The 32-byte public key.
        public let publicKey: [UInt8]

        public init(using rng: RandomSource = SystemRandom()) {
            let seed = rng.secureBytes(32)
            (expanded, publicKey) = Self.expand(seed)
        }

        /// From a 32-byte seed.
        public init<B: ContiguousBytes>(rawRepresentation: B) throws {
            let seed = try rawRepresentation.withUnsafeBytes { b -> SecureBytes in
                guard b.count == 32 else { throw CryptoError(.invalidPrivateKey, "Ed25519 seed must be 32 bytes") }
                return SecureBytes(copying: b)
            }
            (expanded, publicKey) = Self.expand(seed)
        }

        /// The 32-byte seed, for export only.
        public var rawRepresentation: SecureBytes {
            expanded.withUnsafeBytes { SecureBytes(copying: $0[0..<32]) }
        }

        private static func expand(_ seed: SecureBytes) -> (SecureBytes, [UInt8]) {
            Sodium.ensureInitialized()
            var pk = [UInt8](repeating: 0, count: 32)
            let sk = SecureBytes(count: 64) { out in
                seed.withUnsafeBytes { s in
                    _ = crypto_sign_seed_keypair(&pk, out.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                 s.baseAddress!.assumingMemoryBound(to: UInt8.self))
                }
            }
            return (sk, pk)
        }

        /// A 64-byte signature over `message`.
        public func signature<M: ContiguousBytes>(for message: M) -> [UInt8] {
            var sig = [UInt8](repeating: 0, count: 64)
            message.withUnsafeBytes { m in
                expanded.withUnsafeBytes { sk in
                    _ = crypto_sign_detached(&sig, nil, m.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(m.count),
                                             sk.baseAddress!.assumingMemoryBound(to: UInt8.self))
                }
            }
            return sig
        }
    }

    /// Verifies a 64-byte signature with a 32-byte public key.
    public static func isValidSignature<M: ContiguousBytes>(_ signature: [UInt8], for message: M, publicKey: [UInt8]) -> Bool {
        guard signature.count == 64, publicKey.count == 32 else { return false }
        Sodium.ensureInitialized()
        return message.withUnsafeBytes { m in
            crypto_sign_verify_detached(signature, m.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(m.count), publicKey) == 0
        }
    }

    /// Whether 32 bytes are a canonical encoding of an Ed25519 point on the main subgroup that
    /// is not of small order (libsodium `crypto_core_ed25519_is_valid_point`): a usable public key.
    public static func isValidPublicKey(_ publicKey: [UInt8]) -> Bool {
        guard publicKey.count == 32 else { return false }
        Sodium.ensureInitialized()
        return crypto_core_ed25519_is_valid_point(publicKey) == 1
    }
}
