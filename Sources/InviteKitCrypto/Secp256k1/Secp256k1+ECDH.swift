internal import CSecp256k1

extension Secp256k1.PrivateKey {
    /// ECDH with `peer` (taken with even y, as x-only keys are), returning the unhashed 32-byte
    /// x coordinate of the shared point, which
    /// [NIP-44](https://github.com/nostr-protocol/nips/blob/master/44.md) feeds to HKDF.
    public func sharedSecretX(with peer: Secp256k1.XOnlyPublicKey) throws -> SecureBytes {
        var point = peer.evenPoint
        var ok = false
        let out = SecureBytes(count: 32) { out in
            withSecret { s in
                ok = secp256k1_ecdh(Secp256k1.context, out.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                    &point, s, invitekit_ecdh_copy_x_fn(), nil) == 1
            }
        }
        guard ok else { throw CryptoError(.invalidPublicKey, "ECDH failed") }
        return out
    }
}
