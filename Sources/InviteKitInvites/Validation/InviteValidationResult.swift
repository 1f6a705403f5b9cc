import InviteKitCrypto

/// Per-check outcomes of validating a signed invite, and the one error to report.
public struct InviteValidationResult: Hashable, Sendable {
    /// Signature and creator (`invalid_signature`, `creator_mismatch`).
    public var signature: InviteCheckOutcome = .skipped
    /// `invite_expired`.
    public var inviteExpiry: InviteCheckOutcome = .skipped
    /// Creator side only: `token_*` when the token does not open, `conversation_not_found`.
    public var conversation: InviteCheckOutcome = .skipped
    /// `conversation_expired`.
    public var conversationExpiry: InviteCheckOutcome = .skipped
    /// `invite_revoked`.
    public var revocation: InviteCheckOutcome = .skipped
    /// `invite_already_used`, `store_unavailable`.
    public var singleUse: InviteCheckOutcome = .skipped
    /// The verified creator, when the signature checked out.
    public var creator: Secp256k1.XOnlyPublicKey?
    /// The conversation the token names, when the creator opened it.
    public var conversationID: String?

    /// Every check skipped.
    public init() {}

    /// Every check's outcome, in the order the checks run (``InviteCheck/allCases``).
    public var verdicts: [InviteCheckVerdict] {
        InviteCheck.allCases.map { InviteCheckVerdict(check: $0, outcome: self[$0]) }
    }

    /// The outcome of one check.
    public subscript(check: InviteCheck) -> InviteCheckOutcome {
        switch check {
        case .signature: return signature
        case .inviteExpiry: return inviteExpiry
        case .conversation: return conversation
        case .conversationExpiry: return conversationExpiry
        case .revocation: return revocation
        case .singleUse: return singleUse
        }
    }

    /// The first failure, in check order (``verdicts``).
    public var error: InviteError? { verdicts.lazy.compactMap(\.outcome.error).first }

    /// `true` when no check failed.
    public var isValid: Bool { error == nil }
}
