extension InviteLinkV1 {
    /// Whether the link has expired at Unix time `now`: `expires_at` is zero for no expiry, else
    /// the first second at which the link no longer admits (PROTOCOL §5.14.9, decision on the
    /// boundary second).
    public func isExpired(at now: UInt64) -> Bool {
        Self.isExpired(expiresAt: expiresAt, at: now)
    }

    /// The one rule for `expires_at`, which the entry and its preview share.
    static func isExpired(expiresAt: UInt64, at now: UInt64) -> Bool {
        expiresAt != 0 && now >= expiresAt
    }
}
