import InviteKitCrypto
import InviteKitNostr

/// The one dispatcher of ``NodeHomeRequest``: a process running a request on its own node and a
/// node serving its home (``NodeHome/serve(_:onReady:onRequests:)``) both call it.
extension InviteKitNode {
    /// The longest a multi-member add may take (its Commits go one after another, PROTOCOL §5.11).
    static let maxAddDuration: Duration = .seconds(600)

    /// Runs `request` on this node and returns its answer: an event id, a tag, a URL, a join id,
    /// or a count (``NodeHomeRequest``'s cases say which). A multi-member add drives ``run()``
    /// while it works when nothing else does.
    public func perform(_ request: NodeHomeRequest) async throws(InviteKitError) -> String {
        try requireOpen()
        if case .join(let url) = request {
            if let url { return try startJoin(invite: url).id }
            guard let latest = try pendingJoins().last else { throw InviteKitError(.notFound, underlyingCode: "no_pending_join", context: "no pending join to resume") }
            return latest.id
        }
        let row = try group(request.group)
        switch request {
        case .send(_, let text):
            // The relay handshake overlaps the encryption and the save.
            prepareConnections(to: row.relays)
            return try send(text, to: row.id)
        case .react(_, let message, let emoji): return try react(emoji, to: message, in: row.id).eventID
        case .reply(_, let message, let text): return try reply(text, to: message, in: row.id).eventID
        case .edit(_, let message, let text): return try edit(message, newText: text, in: row.id).eventID
        case .delete(_, let message): return try delete(message, in: row.id).eventID
        case .retention(_, let seconds): return try await setMessageRetention(seconds, groupID: row.id)
        case .revoke: return try revokeInvites(groupID: row.id)
        case .invite(_, let singleUse, let expiresIn, let format):
            return try createInvite(groupID: row.id, format: format, singleUse: singleUse, expiresIn: expiresIn).url
        case .add(_, let members):
            let keys = try Self.parseKeys(members)
            if keys.count == 1 { return try await addMember(keys[0], to: row.id) }
            let result = try await whileRunning { node -> Result<NodeAddResult, InviteKitError> in
                do throws(InviteKitError) { return .success(try await node.addMembers(keys, to: row.id, timeout: Self.maxAddDuration)) } catch {
                    return .failure(error)
                }
            }.get()
            guard let last = result.commits.last else {
                throw InviteKitError(.notFound, underlyingCode: "nobody_to_add", context: "nobody to add: every member is in the group or has no valid KeyPackage")
            }
            return last
        case .remove(_, let member): return try await removeMember(try Self.parseKeys([member])[0], groupID: row.id)
        case .update: return try await selfUpdate(groupID: row.id)
        case .leave: return try leaveGroup(groupID: row.id)
        case .approve(_, let member): return try await approveJoin(member: try Self.parseKeys([member])[0], groupID: row.id)
        case .decline(_, let member): return "\(try declineJoin(member: try Self.parseKeys([member])[0], groupID: row.id))"
        case .rename(_, let name): return try await renameGroup(row.id, to: name)
        case .describe(_, let description): return try await describeGroup(row.id, as: description)
        case .promote(_, let member): return try await promoteAdmin(try Self.parseKeys([member])[0], in: row.id)
        case .demote(_, let member): return try await demoteAdmin(try Self.parseKeys([member])[0], in: row.id)
        case .relays(_, let relays): return try await changeGroupRelays(row.id, to: relays)
        case .disband: return try await disbandGroup(row.id)
        case .mute(_, let muted): return try setMuted(muted, groupID: row.id).muted ? "muted" : "unmuted"
        case .pin(_, let pinned): return try setPinned(pinned, groupID: row.id).pinned ? "pinned" : "unpinned"
        case .markRead(_, let event): return "\(try markRead(row.id, upTo: event).unreadCount)"
        case .join: return ""
        case .createLink(_, let automatic, let expiresIn, let name, let description, let relays):
            let expiresAt = try Self.linkExpiry(expiresIn, now: currentTime())
            return try await whileRunning { node -> Result<NodeInviteLink, InviteKitError> in
                do throws(InviteKitError) {
                    return .success(try await node.createInviteLink(in: row.id, approval: automatic ? .automatic : .manual, expiresAt: expiresAt, name: name,
                                                                    description: description, requestRelays: relays.isEmpty ? nil : relays))
                } catch { return .failure(error) }
            }.get().code.bech32m
        case .revokeLink(_, let link):
            return try await whileRunning { node -> Result<String, InviteKitError> in
                do throws(InviteKitError) { return .success(try await node.revokeInviteLink(link, in: row.id)) } catch { return .failure(error) }
            }.get()
        case .decideLinkRequest(_, let request, let approve):
            return try await decideInviteRequest(request, in: row.id, approve: approve) ?? "declined"
        }
    }

    /// A link's `expires_at` for a lifetime of `seconds` from `now` (`nil`: 0, no expiry); a
    /// lifetime that is not ahead is `invite_invalid` (`invalid_expiry`).
    static func linkExpiry(_ seconds: Int64?, now: Int64) throws(InviteKitError) -> UInt64 {
        guard let seconds else { return 0 }
        let (at, overflow) = now.addingReportingOverflow(seconds)
        guard seconds > 0, !overflow, at > 0 else {
            throw InviteKitError(.inviteInvalid, underlyingCode: "invalid_expiry", context: "a link's lifetime must be a positive number of seconds")
        }
        return UInt64(at)
    }

    /// Runs `body` with ``run()`` driving this node meanwhile: started here when it is not
    /// running yet (and stopped again afterwards), else the running loop does the work. The one
    /// place a home's node starts its run loop for a process (``NodeHome``).
    func whileRunning<T: Sendable>(_ body: (InviteKitNode) async -> T) async -> T {
        if isRunning { return await body(self) }
        let driver = runInBackground()
        // run() marks the node running once it gets the actor; link calls check that mark.
        var waited = 0
        while !isRunning, waited < 500 {
            try? await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        let result = await body(self)
        driver.cancel()
        _ = await driver.result
        return result
    }

    static func parseKeys(_ members: [String]) throws(InviteKitError) -> [Secp256k1.XOnlyPublicKey] {
        guard !members.isEmpty else { throw InviteKitError(.invalidKey, underlyingCode: "no_member") }
        return try InviteKitError.mapping { try members.map { try NostrKeys.parsePublicKey($0) } }
    }
}
