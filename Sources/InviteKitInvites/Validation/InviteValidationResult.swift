import InviteKitCrypto

/// Per-check outcomes of validating a signed invite, and the one error to report.
public struct InviteValidationResult: Hashable, Sendable {
    /// Signature and creator (`invalid_signature`, `creator_mismatch`).
    public var signature: InviteCheckOutcome = .skipped
    /// `invite_expired`.
    public var inviteExpiry: InviteCheckOutcome = .skipped
    /// `conversation_expired`.
    public var conversationExpiry: InviteCheckOutcome = .skipped
    /// Creator side only: `token_*` when the token does not open, `conversation_not_found`.
    public var conversation: InviteCheckOutcome = .skipped
    /// `invite_revoked`.
    public var revocation: InviteCheckOutcome = .skipped
    /// `invite_already_used`, `store_unavailable`.
    public var singleUse: InviteCheckOutcome = .skipped
    /// The verified creator, when the signature checked out.
    public var creator: Secp256k1.XOnlyPublicKey?
    /// The conversation the token names, when the creator opened it.
    public var conversationId: String?
    /// `true` when this validation consumed the single-use invite.
    public var consumed = false

    /// Every check skipped.
    public init() {}

    /// The first failure, in check order: signature, invite expiry, conversation expiry,
    /// conversation, revocation, single use.
    public var error: InviteError? {
        signature.error ?? inviteExpiry.error ?? conversationExpiry.error ?? conversation.error ?? revocation.error
            ?? singleUse.error
    }

    /// `true` when no check failed.
    public var isValid: Bool { error == nil }
}
