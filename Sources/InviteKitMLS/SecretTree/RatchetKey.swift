import InviteKitCrypto

/// One generation's AEAD key and nonce from a secret-tree ratchet (RFC 9420 §9.1).
public struct RatchetKey: Sendable {
    public let generation: UInt32
    public let key: SecureBytes
    public let nonce: SecureBytes
}
