import InviteKitCrypto
import InviteKitNostr

/// Commits that change the group itself rather than its membership: disbanding, and the forged
/// group-data commit the `mls` tool makes to test receivers' admin and lifecycle rules.
extension MarmotGroup {
    /// The disband Commit (`app-components/group-lifecycle-v1.md`, "Disband update and Commit
    /// shape"): lifecycle `disbanded`, the admin list replaced by this member alone, and every
    /// other leaf removed, in one Commit. Current profile only, in a group that carries the
    /// lifecycle component; admins only. Publish it, then call
    /// ``confirmPublished(_:acknowledgedBy:now:)``: after it, the group takes no further Commit.
    public func disbandCommit(now: Int64 = UnixTime.now(), rng: RandomSource = SystemRandom()) throws -> MarmotPendingCommit<Engine> {
        guard profile == .current, groupData.lifecycle != nil else {
            throw MLSError(.profileMismatch, "only a current-profile group with the lifecycle component (0x800c) can be disbanded")
        }
        guard isAdmin else { throw MLSError(.notAdmin, "only an admin disbands the group") }
        var data = groupData
        data.lifecycle = .disbanded
        data.admins = [state.ownIdentity]
        let others = state.memberIdentities.filter { $0 != state.ownIdentity }
        return try commit(removing: others, groupData: data, now: now, rng: rng)
    }

    /// A group-data commit built without the `rules` this member checks before sending (and
    /// without the invite-links rotation and transition check, PROTOCOL §5.14.14): what a member
    /// that ignores them would publish. Only for exercising receivers' refusal (the `mls`
    /// tool's `--skip-admin-rule` and `--skip-lifecycle-rule`, PROTOCOL §5.16); every receiver
    /// refuses it when the skipped rule applies.
    package func forgedCommit(groupData newData: MarmotGroupData, skipping rules: Set<MarmotSendRule>, now: Int64,
                              rng: RandomSource) throws -> MarmotPendingCommit<Engine> {
        try commit(adding: [], removing: [], groupData: newData, includeSelfRemoves: false, welcomeTree: .inline, includeUpdatePath: true,
                   skipping: rules, now: now, rng: rng)
    }
}
