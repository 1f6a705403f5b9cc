import InviteKitCrypto

/// One generation's AEAD key and nonce from a secret-tree ratchet (RFC 9420 §9.1).
package struct RatchetKey: Sendable {
    package let generation: UInt32
    package let key: SecureBytes
    package let nonce: SecureBytes
}
