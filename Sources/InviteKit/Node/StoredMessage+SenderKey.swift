import InviteKitCrypto
import InviteKitStore

extension StoredMessage {
    /// The author as the key type the node's calls and events use (the store keeps the 32 bytes,
    /// `sender`); `nil` when they are not a valid key.
    public var senderKey: Secp256k1.XOnlyPublicKey? { try? Secp256k1.XOnlyPublicKey(rawRepresentation: sender) }
}
