internal import CSecp256k1

extension Secp256k1 {
    /// A secp256k1 secret key (a Nostr `nsec`). The keypair is computed once and cached, so
    /// signing does not pay for a public-key derivation each time.
    public struct PrivateKey: Sendable {
        let secret: SecureBytes          // 32-byte scalar
        let keypair: SecureBytes         // secp256k1_keypair (96 opaque bytes)
        /// The BIP-340 x-only public key.
        public let publicKey: XOnlyPublicKey

        /// From 32 raw bytes; rejects zero and values ≥ the group order.
        public init<B: ContiguousBytes>(rawRepresentation: B) throws {
            let s = try rawRepresentation.withUnsafeBytes { b -> SecureBytes in
                guard b.count == 32 else { throw CryptoError(.invalidPrivateKey, "secret key must be 32 bytes") }
                return SecureBytes(copying: b)
            }
            try self.init(secret: s)
        }

        /// A fresh key from `rng`.
        public init(using rng: RandomSource = SystemRandom()) {
            while true {
                if let k = try? PrivateKey(secret: rng.secureBytes(32)) { self = k; return }
            }
        }

        init(secret: SecureBytes) throws {
            let valid = secret.withUnsafeBytes { s in
                secp256k1_ec_seckey_verify(Secp256k1.context, s.baseAddress!.assumingMemoryBound(to: UInt8.self)) == 1
            }
            guard valid else { throw CryptoError(.invalidPrivateKey, "secret key out of range") }
            var xonly = secp256k1_xonly_pubkey()
            let kp = SecureBytes(zeroedCount: MemoryLayout<secp256k1_keypair>.size)
            kp.withUnsafeMutableBytes { kpb in
                secret.withUnsafeBytes { s in
                    let kpp = kpb.baseAddress!.assumingMemoryBound(to: secp256k1_keypair.self)
                    _ = secp256k1_keypair_create(Secp256k1.context, kpp, s.baseAddress!.assumingMemoryBound(to: UInt8.self))
                    _ = secp256k1_keypair_xonly_pub(Secp256k1.context, &xonly, nil, kpp)
                }
            }
            self.secret = secret
            self.keypair = kp
            self.publicKey = XOnlyPublicKey(parsed: xonly)
        }

        /// The 32-byte secret, for an explicit export only.
        public var rawRepresentation: SecureBytes { secret }

        func withKeypair<R>(_ body: (UnsafePointer<secp256k1_keypair>) throws -> R) rethrows -> R {
            try keypair.withUnsafeBytes { try body($0.baseAddress!.assumingMemoryBound(to: secp256k1_keypair.self)) }
        }

        func withSecret<R>(_ body: (UnsafePointer<UInt8>) throws -> R) rethrows -> R {
            try secret.withUnsafeBytes { try body($0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
        }
    }
}
