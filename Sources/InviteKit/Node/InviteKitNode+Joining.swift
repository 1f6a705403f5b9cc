import InviteKitCrypto
import InviteKitInvites
import InviteKitMLS
import InviteKitNostr
import InviteKitStore

extension InviteKitNode {
    /// Starts joining through a signed invite or a Whistle code (`JoinClient.start` tells them
    /// apart): checks it locally (nothing is sent for a bad one), keeps the KeyPackage's private
    /// part, and records the pending join together with the KeyPackage event and the
    /// gift-wrapped request in the outbound queue (one transaction). A Whistle join's record has
    /// no `inviteTag` (the code has none); its Welcome comes once the inviter's admin approved it
    /// (PROTOCOL §8.3 rule 5). Returns the pending join (its id is the request wrap's id).
    public func startJoin(invite url: String, name: String? = nil) throws(InviteKitError) -> PendingJoinRecord {
        let record = try InviteKitError.mapping { try recordJoin(invite: url, name: name) }
        wake()
        return record
    }

    private func recordJoin(invite url: String, name: String?) throws -> PendingJoinRecord {
        var client = JoinClient(key: signingKey, keyPackages: keyPackages, rng: randomSource)
        let now = currentTime()
        let out = try client.start(invite: url, name: name, now: now)
        let record = PendingJoinRecord(id: out.joinRequest.id, inviteURL: url, inviteTag: out.tag, inviter: out.inviter.rawRepresentation,
                                       relays: out.relays, keyPackageRef: nil, keyPackageEventID: out.keyPackageEvent.id,
                                       requestEventID: out.joinRequest.id, createdAt: now, updatedAt: now)
        try store.write { tx in
            try tx.pendingJoins.insert(record)
            try tx.outbound.enqueue(eventID: out.keyPackageEvent.id, eventJSON: out.keyPackageEvent.jsonString, kind: out.keyPackageEvent.kind,
                                    purpose: .keyPackage, relays: out.relays, now: now)
            try tx.outbound.enqueue(eventID: out.joinRequest.id, eventJSON: out.joinRequest.jsonString, kind: out.joinRequest.kind,
                                    purpose: .joinRequest, relays: out.relays, now: now)
        }
        return record
    }

    /// A Welcome or join error for one of this node's pending joins (from its inviter only).
    /// Works after a restart too: everything it needs is in `pending_joins` and `key_packages`.
    func handleJoinReply(_ gift: UnwrappedGift, wrap: NostrEvent, message: SealedMessage) throws -> Bool {
        let now = currentTime()
        let active = try store.read { tx in try tx.pendingJoins.active() }
        switch message {
        case .inviteJoinError(let e):
            guard let join = active.first(where: { $0.inviter == gift.sender.rawRepresentation && $0.inviteTag == e.inviteTag }) else { return false }
            try store.write { tx in
                try tx.pendingJoins.markFailed(id: join.id, errorType: e.errorType.rawValue, errorTag: e.inviteTag, reason: e.reason,
                                               at: Int64(e.timestamp.timeIntervalSince1970), now: now)
                _ = try tx.processedRequests.record(ProcessedRequest(rumorID: gift.rumor.id, wrapID: wrap.id, outcome: "join_error",
                                                                     groupID: nil, processedAt: now))
            }
            emit(.joinRefused(joinID: join.id, e, error: InviteKitError(e.errorType.inviteKitCode, underlyingCode: e.errorType.rawValue)))
            return true
        case .welcome:
            guard let join = active.first(where: { $0.inviter == gift.sender.rawRepresentation }) else { return false }
            let group = try MarmotMLSGroup.join(gift: gift, recipient: signingKey, store: keyPackages)
            let groupID = Hex.encode(group.state.groupID)
            try store.write { tx in
                try tx.pendingJoins.markJoined(id: join.id, groupID: groupID, now: now)
                try tx.groups.save(StoredGroup(id: groupID, nostrGroupID: Hex.encode(group.nostrGroupID), name: group.groupData.name,
                                               engine: MarmotMLSGroup.engineName, engineVersion: MarmotMLSGroup.engineVersion,
                                               state: group.serialized(), epoch: group.epoch, currentTag: nil,
                                               relays: join.relays, updatedAt: now))
                _ = try tx.processedRequests.record(ProcessedRequest(rumorID: gift.rumor.id, wrapID: wrap.id, outcome: "welcome",
                                                                     groupID: groupID, processedAt: now))
            }
            setGroup(group, groupID: groupID, relays: join.relays, name: group.groupData.name)
            emit(.joined(joinID: join.id, groupID: groupID, epoch: group.epoch))
            return true
        case .joinRequest, .other:
            return false
        }
    }
}

extension InviteKitNode {
    /// Joins through a signed invite or a Whistle code and returns once the Welcome was
    /// processed (MIP-02): ``startJoin(invite:name:)``, then ``waitForJoin(_:timeout:)``. The
    /// relays are driven by ``run()``, which must be running in another task. Throws the
    /// inviter's refusal mapped into the taxonomy (`invite_already_used`,
    /// `conversation_expired`, …), or ``InviteKitError/Code/timedOut`` after `timeout`, when the
    /// join stays pending (``pendingJoins()``) and can be waited for again.
    public func join(_ invite: String, name: String? = nil, timeout: Duration? = nil) async throws(InviteKitError) -> NodeGroup {
        let record = try startJoin(invite: invite, name: name)
        return try await waitForJoin(record.id, timeout: timeout)
    }

    /// Waits for a pending join's answer (also one started before a restart).
    public func waitForJoin(_ joinID: String, timeout: Duration? = nil) async throws(InviteKitError) -> NodeGroup {
        // Subscribed before the first look, so an answer between the two is not missed.
        let events = events(bufferingNewest: 16)
        if let done = try joinResult(joinID) { return try done.get() }
        wake()
        _ = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await e in events {
                    switch e {
                    case .joined(let id?, _, _) where id == joinID: return true
                    case .joinRefused(let id, _, _) where id == joinID: return true
                    default: continue
                    }
                }
                return false
            }
            if let timeout { group.addTask { try? await Task.sleep(for: timeout); return false } }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        if let done = try joinResult(joinID) { return try done.get() }
        throw InviteKitError(.timedOut, underlyingCode: "join_pending")
    }

    /// Joins started and not answered yet, oldest first.
    public func pendingJoins() throws(InviteKitError) -> [PendingJoinRecord] {
        try InviteKitError.mapping { try store.read { tx in try tx.pendingJoins.active() }.sorted { $0.createdAt < $1.createdAt } }
    }

    /// A join's outcome once decided: the group, or the refusal as an error.
    private func joinResult(_ joinID: String) throws(InviteKitError) -> Result<NodeGroup, InviteKitError>? {
        let record = try InviteKitError.mapping { try store.read { tx in try tx.pendingJoins.get(id: joinID) } }
        guard let record else { throw InviteKitError(.notPermitted, underlyingCode: "no_such_join") }
        switch record.state {
        case .requested: return nil
        case .joined: return .success(try group(record.groupID ?? ""))
        case .failed:
            let type = InviteJoinError.ErrorType(rawValue: record.errorType ?? "")
            return .failure(InviteKitError(type.inviteKitCode, underlyingCode: type.rawValue))
        case .cancelled: return .failure(InviteKitError(.joinFailed, underlyingCode: "join_cancelled"))
        }
    }
}
