import InviteKitCrypto
import InviteKitNostr

/// Commits that change the group itself rather than its membership: disbanding, and the forged
/// group-data commit the `mls` tool makes to test receivers' admin rule.
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

    /// A group-data commit built without this member's admin check (nor the invite-links
    /// rotation and transition check, PROTOCOL §5.14.14): what a member that ignores the rules
    /// would publish. Only for exercising receivers' refusal (the `mls` tool's
    /// `--skip-admin-rule`, PROTOCOL §5.16); every receiver refuses it unless this member is an
    /// admin and the invite links it writes are a valid successor.
    package func commitSkippingAdminRule(groupData newData: MarmotGroupData, now: Int64, rng: RandomSource) throws -> MarmotPendingCommit<Engine> {
        try commit(adding: [], removing: [], groupData: newData, includeSelfRemoves: false, welcomeTree: .inline, includeUpdatePath: true,
                   skipAdminRule: true, now: now, rng: rng)
    }
}
