import InviteKitMLS
import InviteKitStore

/// The scheduled self-update (PROTOCOL §5.16; ``NodeSelfUpdatePolicy``).
extension InviteKitNode {
    /// One look per ``run()`` round: each group this node is still in, not disbanded and with no
    /// own Commit in flight, whose leaf is due gets a self-update Commit (applied, and the clock
    /// restarted, on a relay's `OK`). A group the policy has not seen starts its clock now.
    func scheduleSelfUpdates() throws {
        guard let policy = configuration.selfUpdatePolicy else { return }
        let now = currentTime()
        let busy = busyGroups
        for (id, entry) in registry.sorted(by: { $0.key < $1.key }) where !entry.removed && damagedGroups[id] == nil && !busy.contains(id) {
            guard !entry.group.isRemoved, entry.group.groupData.lifecycle != .disbanded else { continue }
            let (last, sent) = try store.read { tx -> (Int64?, Int) in
                guard let last = try tx.selfUpdates.lastUpdate(groupID: id) else { return (nil, 0) }
                return (last, try tx.selfUpdates.messagesSent(groupID: id))
            }
            guard let last else {
                try store.write(durability: .deferred) { tx in try tx.selfUpdates.record(groupID: id, at: now) }
                continue
            }
            if policy.isDue(now: now, lastUpdate: last, messagesSent: sent) { _ = try selfUpdateNow(groupID: id) }
        }
    }
}
