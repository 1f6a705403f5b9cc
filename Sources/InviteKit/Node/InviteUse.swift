/// Whether an invite this node made was used (``InviteKitNode/inviteUse(_:)``). Revocation and
/// expiry are the invite's own fields (`revokedAt`, `expiresAt`); this is about joins.
public enum InviteUse: String, Sendable, Hashable {
    /// A single-use invite nobody joined through yet: it admits one joiner.
    case unused
    /// A single-use invite a joiner used up (PROTOCOL §3.7): every later request is refused
    /// `single_use_consumed`.
    case used
    /// A multi-use invite or a Whistle code: joins never use it up.
    case reusable
}
