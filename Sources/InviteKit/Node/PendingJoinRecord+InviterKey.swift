import InviteKitCrypto
import InviteKitStore

extension PendingJoinRecord {
    /// The inviter as the key type the node's calls and events use (the store keeps the bytes).
    public var inviterKey: Secp256k1.XOnlyPublicKey? { try? Secp256k1.XOnlyPublicKey(rawRepresentation: inviter) }
}
