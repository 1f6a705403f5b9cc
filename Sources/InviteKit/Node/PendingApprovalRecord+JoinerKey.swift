import InviteKitCrypto
import InviteKitStore

extension PendingApprovalRecord {
    /// The member asking, as ``InviteKitNode/approveJoin(member:groupID:)`` takes it (the store
    /// keeps the bytes).
    public var joinerKey: Secp256k1.XOnlyPublicKey? { try? Secp256k1.XOnlyPublicKey(rawRepresentation: joiner) }
}
