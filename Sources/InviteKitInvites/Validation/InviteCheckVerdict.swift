/// The outcome of one ``InviteCheck``.
public struct InviteCheckVerdict: Hashable, Sendable {
    public let check: InviteCheck
    public let outcome: InviteCheckOutcome

    public init(check: InviteCheck, outcome: InviteCheckOutcome) {
        self.check = check
        self.outcome = outcome
    }
}
