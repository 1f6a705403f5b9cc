internal import CSecp256k1
internal import CSodium

/// secp256k1 through libsecp256k1: BIP-340 Schnorr, raw-x ECDH, recoverable ECDSA.
public enum Secp256k1 {
    /// One signing/verification context for the process. libsecp256k1 contexts are safe to share
    /// across threads once created; it is randomised once against side channels.
    nonisolated(unsafe) static let context: OpaquePointer = {
        let ctx = secp256k1_context_create(UInt32(SECP256K1_CONTEXT_NONE))!
        var seed = [UInt8](repeating: 0, count: 32)
        Sodium.ensureInitialized()
        randombytes_buf(&seed, 32)
        _ = secp256k1_context_randomize(ctx, seed)
        SecureBytes.wipe(&seed)
        return ctx
    }()
}
