/// The admission and retention bounds of invite links v1, in one place
/// (`transports/nostr-invite-links.md` "Limits and privacy"; `features/group-invite-links.md`
/// "Consent and request admission" and "Retention, capacity and restart"; PROTOCOL §5.14.10).
public enum InviteLinkLimits {
    /// Open request contexts an admin retains per link.
    public static let openContextsPerLink = 100
    /// Open reservations plus terminal tombstones across the currently active generations of a group.
    public static let retainedContextsPerGroup = 1000
    /// Retained requests per context: revision zero and seven refreshes.
    public static let requestsPerContext = Int(InviteRequestTBSV1.maxRevision) + 1
    /// The furthest a request's `valid_until` may lie ahead of the receiver's clock (thirty days).
    public static let maxDeadlineAhead: UInt64 = 30 * 86_400
    /// How long a terminal context's tombstone outlives its signed deadline (twenty-four hours).
    public static let tombstoneGrace: UInt64 = 86_400
}
