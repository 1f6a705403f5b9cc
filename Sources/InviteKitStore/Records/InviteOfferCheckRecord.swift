/// What an admin's node found when it fetched and validated the KeyPackage publication a
/// request's offer names (docs/storage.md §6; PROTOCOL §5.14.15, "Offer evidence"). Keyed by
/// the request hash: a refresh names a new offer and is checked anew.
public struct InviteOfferCheckRecord: Sendable, Hashable {
    public enum Outcome: String, Sendable, Hashable {
        /// The exact kind 30443 event was found, verified and is the consented package.
        case valid
        /// It was found and is not acceptable (another account's, another package, no longer
        /// valid): final for this request; a refresh offers another package.
        case invalid
        /// No relay had it yet: checked again at `nextCheckAt`.
        case unavailable
    }

    public var requestHash: [UInt8]
    public var groupID: String
    public var outcome: Outcome
    /// The refusal's stable code, for an `invalid` or `unavailable` outcome.
    public var reason: String?
    public var attempts: Int
    public var nextCheckAt: Int64
    public var checkedAt: Int64

    public init(requestHash: [UInt8], groupID: String, outcome: Outcome, reason: String?, attempts: Int, nextCheckAt: Int64, checkedAt: Int64) {
        self.requestHash = requestHash; self.groupID = groupID; self.outcome = outcome; self.reason = reason
        self.attempts = attempts; self.nextCheckAt = nextCheckAt; self.checkedAt = checkedAt
    }
}
