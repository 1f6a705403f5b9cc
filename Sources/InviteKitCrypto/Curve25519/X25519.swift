internal import CSodium

/// X25519 Diffie-Hellman (RFC 7748 §5).
public enum X25519 {
    /// An X25519 private key (32 bytes, clamped by the scalar multiplication itself).
    public struct PrivateKey: Sendable {
        let secret: SecureBytes
        /// The 32-byte public key.
        public let publicKey: [UInt8]

        public init(using rng: RandomSource = SystemRandom()) {
            Sodium.ensureInitialized()
            let s = rng.secureBytes(32)
            secret = s
            publicKey = Self.derivePublic(s)
        }

        public init<B: ContiguousBytes>(rawRepresentation: B) throws {
            Sodium.ensureInitialized()
            let s = try rawRepresentation.withUnsafeBytes { b -> SecureBytes in
                guard b.count == 32 else { throw CryptoError(.invalidPrivateKey, "X25519 private key must be 32 bytes") }
                return SecureBytes(copying: b)
            }
            secret = s
            publicKey = Self.derivePublic(s)
        }

        /// The raw secret, for export only.
        public var rawRepresentation: SecureBytes { secret }

        private static func derivePublic(_ s: SecureBytes) -> [UInt8] {
            var pk = [UInt8](repeating: 0, count: 32)
            s.withUnsafeBytes { _ = crypto_scalarmult_curve25519_base(&pk, $0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
            return pk
        }

        /// The shared secret with `peer`. Fails on a low-order point (all-zero output), as
        /// RFC 7748 §6.1 allows and RFC 9180 §7.1.4 requires.
        public func sharedSecret(with peer: [UInt8]) throws -> SecureBytes {
            guard peer.count == 32 else { throw CryptoError(.invalidPublicKey, "X25519 public key must be 32 bytes") }
            var failed = false
            let out = SecureBytes(count: 32) { out in
                secret.withUnsafeBytes { s in
                    failed = crypto_scalarmult_curve25519(
                        out.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        s.baseAddress!.assumingMemoryBound(to: UInt8.self), peer) != 0
                }
            }
            if failed { throw CryptoError(.invalidPublicKey, "X25519 low-order public key") }
            return out
        }
    }
}
