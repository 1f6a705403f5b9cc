/// One check of signed-invite validation, in the order ``InviteValidator`` runs them
/// (PROTOCOL.md §3.7).
public enum InviteCheck: String, Hashable, Sendable, CaseIterable {
    /// Signature and creator (`invalid_signature`, `creator_mismatch`).
    case signature
    /// `invite_expired`.
    case inviteExpiry = "invite_expiry"
    /// Creator side only: the token opens (`token_*`) and names a hosted conversation
    /// (`conversation_not_found`).
    case conversation
    /// `conversation_expired`.
    case conversationExpiry = "conversation_expiry"
    /// `invite_revoked`.
    case revocation
    /// `invite_already_used`, `store_unavailable` (read only: validation never consumes).
    case singleUse = "single_use"
}
