extension InvitePreviewV1 {
    /// Whether the previewed link has expired at Unix time `now` (the entry's rule): an expired
    /// link admits no new request.
    public func isExpired(at now: UInt64) -> Bool {
        InviteLinkV1.isExpired(expiresAt: expiresAt, at: now)
    }
}
