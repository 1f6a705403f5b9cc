import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr
import InviteKitStore

/// Changes to the group itself (PROTOCOL §5.16): its name and description, its admins, its
/// relays, and disbanding it. Each is one Commit, built by an admin, queued behind the group's
/// Commit in flight like a membership change, and applied after a relay's `OK`
/// (``waitForCommit(_:timeout:)``); ``NodeEvent`` reports what it changed. What the node refuses
/// it refuses before building anything, with a typed error: `not_permitted` (`not_admin`) for a
/// non-admin, `last_admin` for a change that would leave no admin, `group_disbanded` for any
/// change to a disbanded group.
extension InviteKitNode {
    /// Renames the group (admins only). Returns the Commit's event id.
    public func renameGroup(_ groupID: String, to name: String) async throws(InviteKitError) -> String {
        try await changeGroupData(groupID) { data in data.name = name }
    }

    /// Replaces the group's description (admins only). Returns the Commit's event id.
    public func describeGroup(_ groupID: String, as description: String) async throws(InviteKitError) -> String {
        try await changeGroupData(groupID) { data in data.description = description }
    }

    /// Makes `member` an admin (admins only; `member` must be in the group and not an admin yet:
    /// `not_a_member`, `not_permitted`/`already_admin`). Returns the Commit's event id.
    public func promoteAdmin(_ member: Secp256k1.XOnlyPublicKey, in groupID: String) async throws(InviteKitError) -> String {
        try await changeGroupData(groupID) { data, group in
            let id = member.rawRepresentation
            guard group.state.memberIdentities.contains(id) else { throw InviteKitError(.notAMember, underlyingCode: "not_a_member") }
            guard !data.isAdmin(id) else { throw InviteKitError(.notPermitted, underlyingCode: "already_admin") }
            data.admins.append(id)
        }
    }

    /// Takes admin rights from `member`, this node included (admins only; `member` must be an
    /// admin: `not_permitted`/`not_an_admin`). The last admin cannot demote themselves:
    /// `last_admin` until another member was promoted. Returns the Commit's event id.
    public func demoteAdmin(_ member: Secp256k1.XOnlyPublicKey, in groupID: String) async throws(InviteKitError) -> String {
        try await changeGroupData(groupID) { data, _ in
            let id = member.rawRepresentation
            guard data.isAdmin(id) else { throw InviteKitError(.notPermitted, underlyingCode: "not_an_admin") }
            data.admins.removeAll { $0 == id }
            guard !data.admins.isEmpty else { throw InviteKitError(.lastAdmin, underlyingCode: "last_admin") }
        }
    }

    /// Replaces the relays the group's events go to (admins only): 1–16 `ws://`/`wss://` URLs
    /// (component `0x8004` in the current profile, `relays` of `0xf2ee` in the MIP profile). Once
    /// the Commit is applied the node publishes to and reads from the new relays; the Commit
    /// itself goes to the old ones, where the members are. Returns the Commit's event id.
    public func changeGroupRelays(_ groupID: String, to relays: [String]) async throws(InviteKitError) -> String {
        let unique = Array(Set(relays)).sorted()
        guard (1...NostrRoutingV1.maxRelays).contains(unique.count), unique.allSatisfy(NostrRoutingV1.isRoutingURL) else {
            throw InviteKitError(.commitRejected, underlyingCode: "invalid_relays",
                                 context: "give 1 to \(NostrRoutingV1.maxRelays) ws:// or wss:// relay URLs without userinfo or fragment")
        }
        return try await changeGroupData(groupID) { data in data.relays = unique }
    }

    /// Disbands the group (admins only; current profile with the lifecycle component `0x800c`):
    /// one Commit sets the lifecycle to `disbanded`, leaves this node as the only admin and removes
    /// every other member (`app-components/group-lifecycle-v1.md`). Afterwards the group takes no
    /// change (`group_disbanded`) and its members see ``NodeEvent/groupDisbanded(groupID:)``.
    /// Returns the Commit's event id.
    public func disbandGroup(_ groupID: String) async throws(InviteKitError) -> String {
        try requireOpen()
        let row = try InviteKitError.mapping { try changeableGroup(groupID).row }
        try await awaitCommitSlot(row.id)
        let id = try InviteKitError.mapping {
            let (row, group) = try changeableGroup(groupID)
            guard group.profile == .current, group.groupData.lifecycle != nil else {
                throw InviteKitError(.notPermitted, underlyingCode: "no_lifecycle_component",
                                     context: "only a current-profile group with the lifecycle component can be disbanded")
            }
            try requireNoCommitInFlight(row.id)
            let commit = try group.disbandCommit(now: currentTime(), rng: randomSource)
            return try submit(.change(groupID: row.id, commit: commit), relays: row.relays)
        }
        wake()
        return id
    }

    private func changeGroupData(_ groupID: String, _ edit: (inout MarmotGroupData) throws -> Void) async throws(InviteKitError) -> String {
        try await changeGroupData(groupID) { data, _ in try edit(&data) }
    }

    /// The one path of every group-data change: the refusals first (before waiting, so a refused
    /// change does not wait for the Commit in flight), then, once the group has no Commit in
    /// flight, the same checks on the state that Commit left and the Commit itself.
    func changeGroupData(_ groupID: String,
                         _ edit: (inout MarmotGroupData, MarmotMLSGroup) throws -> Void) async throws(InviteKitError) -> String {
        try requireOpen()
        let row = try InviteKitError.mapping { () throws -> StoredGroup in
            let (row, group) = try changeableGroup(groupID)
            var data = group.groupData
            try edit(&data, group)
            return row
        }
        try await awaitCommitSlot(row.id)
        let id = try InviteKitError.mapping {
            let (row, group) = try changeableGroup(groupID)
            try requireNoCommitInFlight(row.id)
            var data = group.groupData
            try edit(&data, group)
            guard data != group.groupData else { throw InviteKitError(.notPermitted, underlyingCode: "no_change") }
            let commit = try group.commit(groupData: data, now: currentTime(), rng: randomSource)
            return try submit(.change(groupID: row.id, commit: commit), relays: row.relays)
        }
        wake()
        return id
    }

    /// The group's row and state, or why this node may not change it: removed, disbanded, or
    /// not an admin.
    private func changeableGroup(_ groupID: String) throws -> (row: StoredGroup, group: MarmotMLSGroup) {
        let row = try groupRow(groupID)
        let group = try currentGroup(row.id)
        try Self.requireActive(row, group)
        guard group.isAdmin else { throw InviteKitError(.notPermitted, underlyingCode: "not_admin") }
        return (row, group)
    }

    /// Why this node may no longer send anything to a group, the disband first: a member a
    /// disband removed is told `group_disbanded`, as its disbander is, not `removed`
    /// (PROTOCOL §5.16).
    static func requireActive(_ row: StoredGroup, _ group: MarmotMLSGroup) throws {
        if group.groupData.lifecycle == .disbanded { throw InviteKitError(.groupDisbanded, underlyingCode: "group_disbanded") }
        if row.removedAt != nil || group.isRemoved { throw InviteKitError(.notAMember, underlyingCode: "removed") }
    }

    /// What a change from `old` to `new` group data means for the app, in one list: a disband
    /// alone, else the profile, admins and relays that differ.
    static func groupDataEvents(groupID: String, from old: MarmotGroupData, to new: MarmotGroupData) -> [NodeEvent] {
        if new.lifecycle == .disbanded, old.lifecycle != .disbanded { return [.groupDisbanded(groupID: groupID)] }
        var events: [NodeEvent] = []
        if old.name != new.name || old.description != new.description {
            events.append(.groupProfileChanged(groupID: groupID, name: new.name, description: new.description))
        }
        if Set(old.admins) != Set(new.admins) {
            events.append(.adminsChanged(groupID: groupID, admins: new.admins.compactMap(memberKey(bytes:))))
        }
        if Set(old.relays) != Set(new.relays) { events.append(.groupRelaysChanged(groupID: groupID, relays: new.relays)) }
        return events
    }

    /// A received Commit's refusal the app is told about: the admin rule and the disbanded
    /// group's (PROTOCOL §5.16). Other refusals (junk, replays) stay silent, as before.
    static func refusalEvent(_ outcome: MarmotOutcome, groupID: String, eventID: String) -> NodeEvent? {
        guard case .rejected(let e) = outcome, e.code == .notAdmin || e.code == .groupDisbanded else { return nil }
        return .commitRefused(groupID: groupID, commitEventID: eventID, error: InviteKitError.from(e))
    }
}
