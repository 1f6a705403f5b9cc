/// The result of one validation check.
public enum InviteCheckOutcome: Hashable, Sendable {
    case passed
    case failed(InviteError)
    /// Not run: nothing to check (no expiry set, not single use, no current tag given) or an
    /// earlier check failed, so the invite's fields cannot be trusted.
    case skipped

    /// The failure, when the check failed.
    public var error: InviteError? { if case .failed(let e) = self { return e } else { return nil } }
}
