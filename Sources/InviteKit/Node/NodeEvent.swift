import InviteKitCrypto
import InviteKitMLS
import InviteKitStore

/// What a node reports to the app, in order, through ``InviteKitNode/events(bufferingNewest:)``.
/// Every subscriber sees every event emitted after it subscribed.
public enum NodeEvent: Sendable {
    /// ``InviteKitNode/run()`` started: the relays it serves (default relays, plus every
    /// group's and pending join's relays).
    case running(relays: [String])
    /// A pending join (its id, `PendingJoinRecord.id`) ended with a processed Welcome.
    case joined(joinID: String?, groupID: String, epoch: UInt64)
    /// The inviter refused a pending join: the raw `invite_join_error` (PROTOCOL §8.2) and the
    /// taxonomy error an app shows for it.
    case joinRefused(joinID: String, InviteJoinError, error: InviteKitError)
    /// The Welcome for a pending join could not be used: its ratchet-tree chunks (PROTOCOL §5.11)
    /// were missing or invalid, it did not open, or it was for another group than the invite's.
    /// The join ends failed with this error (``InviteKitNode/waitForJoin(_:timeout:)`` throws it
    /// at once, in any process); its KeyPackage is kept, so joining again can use it.
    case welcomeFailed(joinID: String, error: InviteKitError)
    /// A group message from another member was stored.
    case messageReceived(StoredMessage)
    /// An own message was stored and queued (``InviteKitNode/send(_:to:)``).
    case messageQueued(StoredMessage)
    /// The group's retention (PROTOCOL §5.15) ended for `count` stored messages: they were
    /// removed from the home and no read shows them again.
    case messagesExpired(groupID: String, count: Int)
    /// A relay acknowledged an own message (`OK true`, NIP-01).
    case messageDelivered(groupID: String, eventID: String)
    /// Every relay refused an own message, or the retries ran out.
    case messageFailed(groupID: String, eventID: String)
    /// An own Commit was acknowledged by a relay and applied (MIP-03): the group is at `epoch`.
    case commitConfirmed(groupID: String, commitEventID: String, epoch: UInt64)
    /// An own Commit was refused by every relay, or another Commit took its epoch first; the
    /// group stays where it was. `lostAdds` are the members it would have added (a join's
    /// Commit is built again on the new epoch when the joiner still qualifies).
    case commitRolledBack(groupID: String, commitEventID: String, lostAdds: [Secp256k1.XOnlyPublicKey])
    /// Convergence (PROTOCOL §5.13) chose another branch of a group than the one this node had
    /// applied from `forkEpoch` on: the group is now at `epoch` on the selected branch. The
    /// changes the replaced commits announced did not happen; ``memberAdded(groupID:member:)``
    /// and ``memberRemoved(groupID:member:)`` follow for the membership the new branch differs in.
    case branchReplaced(groupID: String, forkEpoch: UInt64, epoch: UInt64)
    /// A convergence pass of a current-profile group closed and its frozen batch of `commits`
    /// received Commits was resolved: the group is `Stable` at `epoch` (PROTOCOL §5.13, "Passes").
    case convergencePassResolved(groupID: String, commits: Int, epoch: UInt64)
    /// A Commit (own or received) added `member`.
    case memberAdded(groupID: String, member: Secp256k1.XOnlyPublicKey)
    /// A Commit (own or received) removed `member` (this node too, followed by
    /// ``removedFromGroup(groupID:)``).
    case memberRemoved(groupID: String, member: Secp256k1.XOnlyPublicKey)
    /// A Commit removed this node from the group: it reads nothing more from it.
    case removedFromGroup(groupID: String)
    /// A Commit (own or received) changed the group's name or description (MIP-01 group data;
    /// component `0x8001` in the current profile). Like the admin and relay events, it says what
    /// the group is now: Commits applied together (one convergence pass, or a buffered Commit the
    /// first one made readable) give one event with their final values.
    case groupProfileChanged(groupID: String, name: String, description: String)
    /// A Commit (own or received) changed who the group's admins are: `admins` is the new list.
    case adminsChanged(groupID: String, admins: [Secp256k1.XOnlyPublicKey])
    /// A Commit (own or received) changed the relays the group's events go to: the node now
    /// publishes to and reads from `relays` (PROTOCOL §5.16).
    case groupRelaysChanged(groupID: String, relays: [String])
    /// A Commit (own or received) disbanded the group (component `0x800c`, PROTOCOL §5.16): it
    /// takes no further change or message (`group_disbanded`), and no removal events are
    /// reported for that Commit. The members it removed see this too, not
    /// ``removedFromGroup(groupID:)``.
    case groupDisbanded(groupID: String)
    /// A received Commit (or an admin's leave request) was refused: a non-admin changed
    /// admin-only state, an admin asked to leave, or the group is disbanded (PROTOCOL §5.16).
    /// The group stays where it was.
    case commitRefused(groupID: String, commitEventID: String, error: InviteKitError)
    /// A join request was decided (PROTOCOL §8.3). `groupID` is the group it asked for, when
    /// this node hosts it (also for a refusal: a used-up single-use invite names its group).
    case joinRequestDecided(requestID: String, groupID: String?, outcome: JoinRequestOutcome)
    /// A join request through a Whistle code was stored and waits for an admin's
    /// ``InviteKitNode/approveJoin(member:groupID:)`` or `declineJoin` (PROTOCOL §8.3 rule 5).
    case approvalRequested(groupID: String, member: Secp256k1.XOnlyPublicKey, requestID: String)
    /// A group's buffer of events no key opens yet was full (PROTOCOL §5.9): its `count` oldest
    /// events were dropped to make room. Reported once per ``InviteKitNode/run()`` round (and
    /// with the group's next saved state), so a flood costs one report, not one per event.
    case bufferedEventsEvicted(groupID: String, count: Int)
    /// An inbound event could not be used (a Welcome that does not open, say, or an edit or
    /// deletion of another member's message: `not_permitted`, `not_author`); nothing changed.
    case eventRejected(eventID: String, error: InviteKitError)
    /// Events were written to relays (one figure per flush round).
    case published(writes: Int)
    /// A relay failed in a way the node retries (no connection, a timed-out `OK`).
    case relayProblem(relay: String, error: InviteKitError)
    /// Invite links (PROTOCOL §5.14.15): a link's policy Commit was applied, so its code is
    /// usable; `linkID` is lowercase hex.
    case inviteLinkCreated(groupID: String, linkID: String)
    /// A link's entry left the selected group state: its unfulfilled requests were cancelled.
    case inviteLinkRevoked(groupID: String, linkID: String, cancelledRequests: Int)
    /// A request (or a refresh or withdrawal of one) to a link of this node was admitted.
    case inviteRequestReceived(groupID: String, requestID: String, requester: Secp256k1.XOnlyPublicKey)
    /// An admin decision on a request took effect: `invited` once the Add Commit was applied,
    /// `declined` when declined.
    case inviteRequestDecided(groupID: String, requestID: String, outcome: InviteStatusV1.Outcome)

    // Joins through invite links (PROTOCOL §5.14.16); `requestID` is `InviteLinkJoin.requestID`.
    /// A request revision (0 after the user's consent, then each refresh) was stored and queued
    /// for the code's relays.
    case inviteLinkRequestQueued(requestID: String, revision: UInt32)
    /// The request was withdrawn; the withdrawal is queued for the code's relays.
    case inviteLinkWithdrawn(requestID: String)
    /// An admin's status claim (`author`, hex) about the request arrived.
    case inviteLinkStatus(requestID: String, author: String, outcome: InviteStatusV1.Outcome)
    /// A Welcome matching the consented preview was processed: the group is joined.
    /// `associated` once an `invited` status from its inviter names it (PROTOCOL §5.14.11).
    case inviteLinkJoined(requestID: String, groupID: String, associated: Bool)
    /// A Welcome for the request's KeyPackage was not used (`invite_preview_mismatch`: its group's
    /// link entry is not the preview consented to); nothing was stored and the KeyPackage is kept.
    case inviteLinkWelcomeRefused(requestID: String, error: InviteKitError)
}

extension NodeEvent: CustomStringConvertible {
    /// The group the event is about, when it is about one.
    public var groupID: String? {
        switch self {
        case .joined(_, let id, _), .messageDelivered(let id, _), .messageFailed(let id, _), .commitConfirmed(let id, _, _),
             .commitRolledBack(let id, _, _), .branchReplaced(let id, _, _), .convergencePassResolved(let id, _, _), .memberAdded(let id, _), .memberRemoved(let id, _), .removedFromGroup(let id),
             .approvalRequested(let id, _, _), .bufferedEventsEvicted(let id, _), .messagesExpired(let id, _),
             .groupProfileChanged(let id, _, _), .adminsChanged(let id, _), .groupRelaysChanged(let id, _), .groupDisbanded(let id),
             .commitRefused(let id, _, _), .inviteLinkCreated(let id, _), .inviteLinkRevoked(let id, _, _),
             .inviteRequestReceived(let id, _, _), .inviteRequestDecided(let id, _, _), .inviteLinkJoined(_, let id, _):
            return id
        case .messageReceived(let m), .messageQueued(let m):
            return m.groupID
        case .joinRequestDecided(_, let id, _):
            return id
        case .running, .joinRefused, .welcomeFailed, .eventRejected, .published, .relayProblem,
             .inviteLinkRequestQueued, .inviteLinkWithdrawn, .inviteLinkStatus, .inviteLinkWelcomeRefused:
            return nil
        }
    }

    /// One line for logs: the case and its identifiers, never message content or keys' secrets.
    public var description: String {
        switch self {
        case .running(let relays): return "running (\(relays.count) relays)"
        case .joined(let join, let group, let epoch): return "joined \(group) at epoch \(epoch)\(join.map { " (join \($0))" } ?? "")"
        case .joinRefused(let join, _, let error): return "join \(join) refused: \(error)"
        case .welcomeFailed(let join, let error): return "join \(join) failed: \(error)"
        case .messageReceived(let m): return "message \(m.eventID) received in \(m.groupID)"
        case .messageQueued(let m): return "message \(m.eventID) queued in \(m.groupID)"
        case .messagesExpired(let group, let count): return "\(count) messages expired in \(group)"
        case .messageDelivered(let group, let id): return "message \(id) delivered in \(group)"
        case .messageFailed(let group, let id): return "message \(id) failed in \(group)"
        case .commitConfirmed(let group, let id, let epoch): return "commit \(id) confirmed in \(group), epoch \(epoch)"
        case .commitRolledBack(let group, let id, let lost): return "commit \(id) rolled back in \(group) (\(lost.count) lost adds)"
        case .branchReplaced(let group, let fork, let epoch): return "branch of \(group) replaced from epoch \(fork), now at \(epoch)"
        case .convergencePassResolved(let group, let commits, let epoch): return "convergence pass of \(group) resolved \(commits) commits, epoch \(epoch)"
        case .memberAdded(let group, let member): return "member \(member.hex) added to \(group)"
        case .memberRemoved(let group, let member): return "member \(member.hex) removed from \(group)"
        case .removedFromGroup(let group): return "removed from \(group)"
        case .groupProfileChanged(let group, _, _): return "profile of \(group) changed"
        case .adminsChanged(let group, let admins): return "admins of \(group) changed (\(admins.count) admins)"
        case .groupRelaysChanged(let group, let relays): return "relays of \(group) changed (\(relays.count) relays)"
        case .groupDisbanded(let group): return "\(group) disbanded"
        case .commitRefused(let group, let id, let error): return "commit \(id) refused in \(group): \(error)"
        case .joinRequestDecided(let request, let group, let outcome): return "join request \(request) \(outcome)\(group.map { " for \($0)" } ?? "")"
        case .approvalRequested(let group, let member, _): return "approval requested for \(member.hex) in \(group)"
        case .bufferedEventsEvicted(let group, let count): return "\(count) buffered events evicted in \(group)"
        case .eventRejected(let id, let error): return "event \(id) rejected: \(error)"
        case .published(let writes): return "published \(writes) writes"
        case .relayProblem(let relay, let error): return "relay \(relay): \(error)"
        case .inviteLinkCreated(let group, let link): return "invite link \(link) active in \(group)"
        case .inviteLinkRevoked(let group, let link, let n): return "invite link \(link) revoked in \(group) (\(n) requests cancelled)"
        case .inviteRequestReceived(let group, let request, _): return "invite request \(request) received in \(group)"
        case .inviteRequestDecided(let group, let request, let outcome): return "invite request \(request) \(outcome) in \(group)"
        case .inviteLinkRequestQueued(let request, let revision): return "invite link request \(request) revision \(revision) queued"
        case .inviteLinkWithdrawn(let request): return "invite link request \(request) withdrawn"
        case .inviteLinkStatus(let request, let author, let outcome): return "invite link request \(request): \(outcome) from \(author)"
        case .inviteLinkJoined(let request, let group, let associated):
            return "joined \(group) through invite link request \(request)\(associated ? "" : " (status not yet received)")"
        case .inviteLinkWelcomeRefused(let request, let error): return "Welcome for invite link request \(request) refused: \(error)"
        }
    }
}
