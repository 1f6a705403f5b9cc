internal import CSecp256k1

extension Secp256k1 {
    /// Recoverable ECDSA: 64-byte compact signature plus a recovery id (0...3), 65 bytes in all.
    /// The signer's key is recovered from the signature rather than carried.
    public enum ECDSA {
        public static let recoverableSignatureByteCount = 65

        /// Recovers the public key that made `signature` (65 bytes) over `digest32`.
        public static func recoverPublicKey(signature: [UInt8], digest32: [UInt8]) throws -> Secp256k1.PublicKey {
            guard signature.count == 65 else { throw CryptoError(.invalidLength, "recoverable signature must be 65 bytes") }
            guard digest32.count == 32 else { throw CryptoError(.invalidLength, "digest must be 32 bytes") }
            let recid = Int32(signature[64])
            guard (0...3).contains(recid) else { throw CryptoError(.invalidSignature, "recovery id out of range") }
            var sig = secp256k1_ecdsa_recoverable_signature()
            guard secp256k1_ecdsa_recoverable_signature_parse_compact(Secp256k1.context, &sig, signature, recid) == 1 else {
                throw CryptoError(.invalidSignature, "malformed compact signature")
            }
            var pub = secp256k1_pubkey()
            guard secp256k1_ecdsa_recover(Secp256k1.context, &pub, &sig, digest32) == 1 else {
                throw CryptoError(.invalidSignature, "no key recovers from this signature")
            }
            return Secp256k1.PublicKey(point: pub)
        }
    }
}

extension Secp256k1.PrivateKey {
    /// A 65-byte recoverable ECDSA signature (RFC 6979 nonces) over a 32-byte digest.
    public func recoverableSignature(digest32: [UInt8]) throws -> [UInt8] {
        guard digest32.count == 32 else { throw CryptoError(.invalidLength, "digest must be 32 bytes") }
        var sig = secp256k1_ecdsa_recoverable_signature()
        let ok = withSecret { s in
            secp256k1_ecdsa_sign_recoverable(Secp256k1.context, &sig, digest32, s, nil, nil) == 1
        }
        guard ok else { throw CryptoError(.backendFailure, "ECDSA signing failed") }
        var out = [UInt8](repeating: 0, count: 65)
        var recid: Int32 = 0
        _ = secp256k1_ecdsa_recoverable_signature_serialize_compact(Secp256k1.context, &out, &recid, &sig)
        out[64] = UInt8(recid)
        return out
    }

    /// The full public key (with its parity), SEC1 compressed.
    public var fullPublicKey: Secp256k1.PublicKey {
        var pub = secp256k1_pubkey()
        withKeypair { _ = secp256k1_keypair_pub(Secp256k1.context, &pub, $0) }
        return Secp256k1.PublicKey(point: pub)
    }
}
