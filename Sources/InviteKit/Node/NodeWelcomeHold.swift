import InviteKitMLS

/// An own Add Commit a relay acknowledged whose Welcomes wait until it has settled on the
/// selected branch (PROTOCOL §5.13, "Welcome hold"): `features/group-invite-links.md` lets only a
/// canonically realized Add authorize a Welcome, and another admin's Commit for the same epoch
/// may still arrive and win.
struct NodeWelcomeHold: Sendable {
    let groupID: String
    /// The epoch the Commit was built on.
    let epoch: UInt64
    /// Not settled before this: one settlement-quiescence window after the `OK` (or the restart).
    let notBefore: ContinuousClock.Instant

    /// A hold whose window starts at `start`.
    init(groupID: String, epoch: UInt64, start: ContinuousClock.Instant, timing: ConvergencePassTiming) {
        self.groupID = groupID
        self.epoch = epoch
        self.notBefore = start + timing.quiescence
    }
}
