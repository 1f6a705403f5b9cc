import XCTest
import Foundation
import InviteKitTestSupport
import InviteKitStore
@testable import InviteKit
@testable import InviteKitMLS

/// The feature's required scenarios on the admin's side (PROTOCOL §5.14.17), each with its
/// refusal and the state after it, through running nodes (admins and a requester node) over one
/// in-memory relay whose acceptance policy the test sets, on a clock the test advances so the
/// outbound queue's retries come due: an approval's Add with no relay `OK` (publication
/// uncertainty), an Add applied while its Welcome and status cannot be delivered, a demoted
/// admin replaying its grant, its inbox and its decisions, and an admin's removal leaving a stale
/// grant.
final class InviteLinkAdminScenarioTests: XCTestCase {
    private let homes = NodeHomes()
    private let clock = LockedBox<Int64>(UnixTime.now())
    private var runners: [Task<Void, any Error>] = []

    override func tearDown() {
        for r in runners { r.cancel() }
        homes.remove()
    }

    /// A running node on this test's relay and clock; no self-updates, so every Commit is the test's.
    /// `restart`: the home exists already.
    private func node(_ name: String, seed: UInt64, restart: Bool = false) throws -> InviteKitNode {
        if !restart { try InviteKitNode.initialize(home: homes.home(name), relays: [homes.relay.url], rng: SeededRandom(seed: seed)) }
        let relay = homes.relay, clock = self.clock
        let configuration = InviteKitNode.Configuration(relayTimeout: .seconds(2), idleInterval: .milliseconds(50), selfUpdatePolicy: nil,
                                                        connector: { _ in relay })
        let node = try InviteKitNode(home: homes.home(name), configuration: configuration, clock: { clock.withLock { $0 } },
                                     rng: SeededRandom(seed: seed + 100))
        runners.append(node.runInBackground())
        return node
    }

    /// Moves the nodes' clock on, so a delivery's backoff (seconds of the node's clock) passes.
    private func advance(_ seconds: Int64) { clock.withLock { $0 += seconds } }

    private func waitFor(_ seconds: Double = 20, _ condition: () async throws -> Bool) async throws -> Bool {
        try await Poll.awaiting(timeout: .seconds(seconds), every: .milliseconds(50), condition)
    }

    /// An admin's group with a manual link, and a requester node whose request the admin admitted.
    private struct World {
        let admin: InviteKitNode
        let requester: InviteKitNode
        let groupID: String
        let link: NodeInviteLink
        let requestID: String
    }

    /// The world's only link is retired at its admin, its request revoked, and the requester got
    /// a `retired` notice.
    private func assertRetiredAndTold(_ w: World, line: UInt = #line) async throws {
        let links = try await w.admin.inviteLinks(in: w.groupID).map(\.state)
        XCTAssertEqual(links, [.retired], line: line)
        let states = try await w.admin.inviteRequests(in: w.groupID).map(\.state)
        XCTAssertEqual(states, [.revoked], line: line)
        let told = try await waitFor { try await w.requester.inviteLinkJoin(w.requestID).status == .retired }
        XCTAssertTrue(told, "the requester got a retired notice", line: line)
    }

    private func world(adminSeed: UInt64 = 1, extraAdmins: [(String, UInt64)] = []) async throws -> (World, [InviteKitNode]) {
        let ada = try node("ada", seed: adminSeed)
        let group = try await ada.createGroup(name: "club")
        var others: [InviteKitNode] = []
        for (name, seed) in extraAdmins {
            let other = try node(name, seed: seed)
            let invite = try await ada.createInvite(groupID: group.id, singleUse: true, expiresIn: 3600)
            _ = try await other.join(invite.url, timeout: .seconds(20))
            _ = try await ada.waitForCommit(try await ada.promoteAdmin(other.publicKey, in: group.id), timeout: .seconds(20))
            let promoted = try await waitFor { try await other.currentGroup(group.id).isAdmin }
            XCTAssertTrue(promoted)
            others.append(other)
        }
        let link = try await ada.createInviteLink(in: group.id, timeout: .seconds(20))
        let bob = try node("bob", seed: 9)
        var preview: InviteLinkPreview?
        let previewed = try await waitFor {
            preview = try? await bob.previewInviteLink(code: link.code.bech32m)
            return preview != nil
        }
        XCTAssertTrue(previewed, "the descriptor reached the relay")
        let started = try await bob.joinByInviteLink(code: link.code.bech32m, preview: try XCTUnwrap(preview).preview)
        let admitted = try await waitFor { try await ada.inviteRequests(in: group.id).count == 1 }
        XCTAssertTrue(admitted, "the admin admitted the request")
        return (World(admin: ada, requester: bob, groupID: group.id, link: link, requestID: started.requestID), others)
    }

    /// Stops a node started by ``node(_:seed:restart:)`` (its runner, then the node).
    private func stop(_ node: InviteKitNode, at index: Int) async {
        runners[index].cancel()
        await node.shutdown()
    }

    /// Gift wraps on the relay addressed to `account`.
    private func wraps(to account: Secp256k1.XOnlyPublicKey) async -> [NostrEvent] {
        await homes.relay.events(matching: [NostrFilter(kinds: [GiftWrap.wrapKind]).tag("p", [account.hex])])
    }

    // MARK: Commit publication uncertainty

    /// No relay answers the approval's Add: the obligation stays owed (no status, no Welcome, the
    /// request open and `approving`), a second approval is refused `approval_in_flight`, and once
    /// the relay answers, the byte-identical Commit is applied, the Welcome joins and the request
    /// is realized; a third approval is then `invite_revoked`.
    func testAnApprovalsAddWithoutAnOKStaysOwedAndIsRetriedByteIdentical() async throws {
        let (w, _) = try await world()
        let ada = w.admin, bob = w.requester
        let epoch = try await ada.currentGroup(w.groupID).epoch
        await homes.relay.setPolicy { $0.kind == MarmotProfile.groupEventKind ? .swallow : .accept }
        let decided = try await ada.decideInviteRequest(w.requestID, in: w.groupID, approve: true)
        let commit = try XCTUnwrap(decided)
        let swallowed = try await waitFor {
            await self.homes.relay.log.contains { entry in
                guard entry.event.id == commit, case .timedOut = entry.outcome else { return false }
                return true
            }
        }
        XCTAssertTrue(swallowed, "the Add was written and got no OK")
        do {
            _ = try await ada.waitForCommit(commit, timeout: .seconds(1))
            XCTFail("an unacknowledged Add is not applied")
        } catch {
            XCTAssertEqual(error.code, .timedOut, "\(error)")
            XCTAssertEqual(error.underlyingCode, "commit_pending")
        }
        var listed = try await ada.inviteRequests(in: w.groupID)
        XCTAssertEqual(listed.map(\.state), [.open])
        XCTAssertEqual(listed.map(\.approving), [true], "the exact obligation is kept")
        await refused(.notPermitted, "approval_in_flight", "a second Add while the first is unresolved") {
            _ = try await ada.decideInviteRequest(w.requestID, in: w.groupID, approve: true)
        }
        let epochNow = try await ada.currentGroup(w.groupID).epoch
        XCTAssertEqual(epochNow, epoch, "publish before apply")
        let nothingSent = await wraps(to: bob.publicKey)
        XCTAssertTrue(nothingSent.isEmpty, "no Welcome and no status before the Commit's OK")
        let bobStatus = try await bob.inviteLinkJoin(w.requestID).status
        XCTAssertEqual(bobStatus, .requested)

        // The relay answers again; the retry (due after the backoff, on the nodes' clock) sends the same Commit.
        await homes.relay.setPolicy(nil)
        let applied = try await waitFor {
            self.advance(5)
            return try await ada.inviteRequests(in: w.groupID).first?.approving == false
        }
        XCTAssertTrue(applied, "the retried Add was settled")
        _ = try await ada.waitForCommit(commit, timeout: .seconds(5))
        let sentCommits = await homes.relay.log.filter { $0.event.id == commit }
        XCTAssertGreaterThanOrEqual(sentCommits.count, 2, "the unacknowledged Commit was sent again")
        let epochAfter = try await ada.currentGroup(w.groupID).epoch
        XCTAssertEqual(epochAfter, epoch + 1, "one Add")
        let joined = try await bob.waitForInviteLinkJoin(w.requestID, timeout: .seconds(20))
        let mlsGroupID = Hex.encode(try await ada.currentGroup(w.groupID).state.groupID)
        XCTAssertEqual(joined.groupID, mlsGroupID)
        let realized = try await waitFor { try await ada.inviteRequests(in: w.groupID).first?.state == .realized }
        XCTAssertTrue(realized)
        let associated = try await waitFor { try await bob.inviteLinkJoin(w.requestID).status == .joined }
        XCTAssertTrue(associated, "the invited status names the Welcome")
        await refused(.inviteRevoked, "invite_request_closed", "an approval of a realized request") {
            _ = try await ada.decideInviteRequest(w.requestID, in: w.groupID, approve: true)
        }
        listed = try await ada.inviteRequests(in: w.groupID)
        XCTAssertEqual(listed.map(\.approving), [false])
        let epochFinal = try await ada.currentGroup(w.groupID).epoch
        XCTAssertEqual(epochFinal, epoch + 1, "no second Add")
    }

    // MARK: Add success with failed Welcome/status delivery

    /// The Add is applied while every gift wrap to the requester is refused: the request is
    /// realized at once (a delivery failure never makes another Add: a second approval is
    /// `invite_revoked`, the epoch does not move), the requester still waits, and the retried
    /// Welcome and status join and associate it once the relay takes them.
    func testAnAddThatSucceededIsNotRepeatedWhileItsWelcomeAndStatusFail() async throws {
        let (w, _) = try await world(adminSeed: 2)
        let ada = w.admin, bob = w.requester
        let blocked = bob.publicKey.hex
        await homes.relay.setPolicy { event in
            event.kind == GiftWrap.wrapKind && event.tags.contains { $0.count >= 2 && $0[0] == "p" && $0[1] == blocked }
                ? .reject("error: the requester's inbox is down") : .accept
        }
        let decided = try await ada.decideInviteRequest(w.requestID, in: w.groupID, approve: true)
        let commit = try XCTUnwrap(decided)
        let group = try await ada.waitForCommit(commit, timeout: .seconds(20))
        let epoch = try await ada.currentGroup(w.groupID).epoch
        let realized = try await waitFor { try await ada.inviteRequests(in: w.groupID).first?.state == .realized }
        XCTAssertTrue(realized, "the selected Add realizes the request whatever its deliveries did")
        let bobAdded = try await ada.currentGroup(w.groupID).state.memberIdentities.contains(bob.publicKey.rawRepresentation)
        XCTAssertTrue(bobAdded)
        let refusedWraps = try await waitFor {
            await self.homes.relay.log.filter { $0.event.kind == GiftWrap.wrapKind && $0.event.tags.contains { $0.count >= 2 && $0[1] == blocked } }
                .count >= 2
        }
        XCTAssertTrue(refusedWraps, "the Welcome and the status were written and refused")
        let delivered = await wraps(to: bob.publicKey)
        XCTAssertTrue(delivered.isEmpty)
        let bobStatus = try await bob.inviteLinkJoin(w.requestID).status
        XCTAssertEqual(bobStatus, .requested, "the requester is not joined by the Add alone")
        await refused(.inviteRevoked, "invite_request_closed", "another Add because the Welcome failed") {
            _ = try await ada.decideInviteRequest(w.requestID, in: w.groupID, approve: true)
        }
        let epochRefused = try await ada.currentGroup(w.groupID).epoch
        XCTAssertEqual(epochRefused, epoch, "no second Add")
        XCTAssertEqual(group.id, w.groupID)

        // The inbox is back: the queued Welcome and status are retried, unchanged.
        await homes.relay.setPolicy(nil)
        let delivered2 = try await waitFor {
            self.advance(5)
            return try await bob.inviteLinkJoin(w.requestID).groupID != nil
        }
        XCTAssertTrue(delivered2, "the retried Welcome reached the requester")
        let joined = try await bob.waitForInviteLinkJoin(w.requestID, timeout: .seconds(20))
        let mlsGroupID = Hex.encode(try await ada.currentGroup(w.groupID).state.groupID)
        XCTAssertEqual(joined.groupID, mlsGroupID)
        let associated = try await waitFor { try await bob.inviteLinkJoin(w.requestID).status == .joined }
        XCTAssertTrue(associated, "the late invited status associates the join")
        let epochFinal = try await ada.currentGroup(w.groupID).epoch
        XCTAssertEqual(epochFinal, epoch, "still the one Add")
    }

    // MARK: Former-admin replay

    /// A demoted admin keeps its granted generation's secrets, but the demotion's Commit retired
    /// the generation (§5.14.14 rotation): its copy is `retired`, and replaying the requester's
    /// wrap to it, deciding the request, making a link or sending the old grant to the remaining
    /// admin are each refused; the remaining admin's ledger revokes the request and the requester
    /// is told `retired`.
    func testADemotedAdminsGrantGivesItNoAuthority() async throws {
        let (w, others) = try await world(adminSeed: 3, extraAdmins: [("dee", 4)])
        let ada = w.admin, dee = try XCTUnwrap(others.first), bob = w.requester
        let granted = try await waitFor { try await dee.inviteLinks(in: w.groupID).map(\.state) == [.active] }
        XCTAssertTrue(granted, "the other admin holds the generation")
        let seen = try await waitFor { try await dee.inviteRequests(in: w.groupID).count == 1 }
        XCTAssertTrue(seen, "and admitted the request through it")
        let inbox = Hex.encode(w.link.code.inboxPublicKey)
        let inboxWraps = await homes.relay.events(matching: [NostrFilter(kinds: [GiftWrap.wrapKind]).tag("p", [inbox])])
        let request = try XCTUnwrap(inboxWraps.first)
        let deeGeneration = try XCTUnwrap(try dee.store.read { tx in try tx.inviteLinks.get(linkID: w.link.linkID) }).generation
        await refused(.notPermitted, "admin_cannot_leave", "an admin leaving before its demotion") { _ = try await dee.leaveGroup(groupID: w.groupID) }

        _ = try await ada.waitForCommit(try await ada.demoteAdmin(dee.publicKey, in: w.groupID), timeout: .seconds(20))
        let entries = try await ada.currentGroup(w.groupID).inviteLinks?.links
        XCTAssertEqual(entries, [], "the demotion retired every generation")
        let states = try await ada.inviteRequests(in: w.groupID).map(\.state)
        XCTAssertEqual(states, [.revoked])
        let demoted = try await waitFor {
            let admin = try await dee.currentGroup(w.groupID).isAdmin
            let states = try await dee.inviteLinks(in: w.groupID).map(\.state)
            return !admin && states == [.retired]
        }
        XCTAssertTrue(demoted, "the former admin's copy is retired")
        let told = try await waitFor { try await bob.inviteLinkJoin(w.requestID).status == .retired }
        XCTAssertTrue(told, "the requester got a retired notice")

        // Replays by and to the former admin.
        await refused(.notPermitted, "not_admin", "the former admin admitting the replayed wrap") { _ = try await dee.handleInviteRequestWrap(request) }
        await refused(.inviteRevoked, "invite_link_inactive", "the remaining admin admitting the replayed wrap") {
            _ = try await ada.handleInviteRequestWrap(request)
        }
        await refused(.notPermitted, "not_admin", "the former admin approving") {
            _ = try await dee.decideInviteRequest(w.requestID, in: w.groupID, approve: true)
        }
        await refused(.notPermitted, "not_admin", "the former admin declining") {
            _ = try await dee.decideInviteRequest(w.requestID, in: w.groupID, approve: false)
        }
        await refused(.notPermitted, "not_admin", "the former admin making a link") { _ = try await dee.createInviteLink(in: w.groupID) }
        await refused(.inviteRevoked, "invite_link_inactive", "the remaining admin approving the revoked request") {
            _ = try await ada.decideInviteRequest(w.requestID, in: w.groupID, approve: true)
        }

        // The former admin sends its old grant in the group: the remaining admin refuses the batch.
        let epoch = try await dee.currentGroup(w.groupID).epoch
        let record = try InviteLinkGeneration(serialized: deeGeneration).grant(groupID: try await dee.currentGroup(w.groupID).state.groupID, sourceEpoch: epoch)
        let batch = try InviteAdminBatchDelivery.make([.init(recipient: ada.publicKey.rawRepresentation, record: record)], admin: await dee.signingKey,
                                                     now: clock.withLock { $0 }, rng: SeededRandom(seed: 5))
        let events = ada.events(bufferingNewest: 256)
        let sent = try await dee.send(kind: InviteLinkNostr.adminRecordKind, content: Base64.encode(batch.encoded), to: w.groupID)
        let rejection = await NodeEventWait.first(in: events, timeout: .seconds(20)) { event -> InviteKitError? in
            if case .eventRejected(_, let error) = event { return error }
            return nil
        }
        XCTAssertEqual(rejection?.underlyingCode, "invite_unauthorized", "a former admin's grant: \(String(describing: rejection))")
        XCTAssertFalse(sent.eventID.isEmpty)
        let adaLinks = try await ada.inviteLinks(in: w.groupID).map(\.state)
        XCTAssertEqual(adaLinks, [.retired], "nothing was reactivated")
        let entries2 = try await ada.currentGroup(w.groupID).inviteLinks?.links
        XCTAssertEqual(entries2, [])

        // Demotion, then the non-admin's SelfRemove: the remaining admin's fresh link stays as it is.
        let fresh = try await ada.createInviteLink(in: w.groupID, timeout: .seconds(20))
        let adaEpoch = try await ada.currentGroup(w.groupID).epoch
        let caughtUp = try await waitFor { try await dee.currentGroup(w.groupID).epoch == adaEpoch }
        XCTAssertTrue(caughtUp, "the leave is proposed at the current epoch")
        _ = try await dee.leaveGroup(groupID: w.groupID)
        let left = try await waitFor { try await !ada.currentGroup(w.groupID).state.memberIdentities.contains(dee.publicKey.rawRepresentation) }
        XCTAssertTrue(left, "the SelfRemove was committed")
        let afterLeave = try await ada.currentGroup(w.groupID).inviteLinks?.links
        XCTAssertEqual(afterLeave, [fresh.entry], "a non-admin's SelfRemove leaves the component unchanged")
        let freshState = try await ada.inviteLinks(in: w.groupID).first { $0.linkID == fresh.linkID }?.state
        XCTAssertEqual(freshState, .active)
    }

    // MARK: Sole-admin succession and self-demotion

    /// The sole admin cannot demote itself or leave (`last_admin`) and its link stays; promoting
    /// a successor retires nothing and sends it the link's grant; the self-demotion then empties the component (every link
    /// retired, the open request revoked, the requester told), the former admin can make no link,
    /// and the successor makes the replacement.
    func testASoleAdminNamesASuccessorBeforeItsSelfDemotionEmptiesTheLinks() async throws {
        let (w, _) = try await world(adminSeed: 8)
        let ada = w.admin
        await refused(.lastAdmin, "last_admin", "the sole admin demoting itself") { _ = try await ada.demoteAdmin(ada.publicKey, in: w.groupID) }
        await refused(.lastAdmin, "last_admin", "the sole admin leaving") { _ = try await ada.leaveGroup(groupID: w.groupID) }
        let kept = try await ada.currentGroup(w.groupID).inviteLinks?.links
        XCTAssertEqual(kept, [w.link.entry])

        let dee = try node("dee", seed: 10)
        let invite = try await ada.createInvite(groupID: w.groupID, singleUse: true, expiresIn: 3600)
        _ = try await dee.join(invite.url, timeout: .seconds(20))
        _ = try await ada.waitForCommit(try await ada.promoteAdmin(dee.publicKey, in: w.groupID), timeout: .seconds(20))
        let promoted = try await ada.currentGroup(w.groupID).inviteLinks?.links
        XCTAssertEqual(promoted, [w.link.entry], "a promotion alone retires no link")
        let stillOpen = try await ada.inviteRequests(in: w.groupID).map(\.state)
        XCTAssertEqual(stillOpen, [.open])
        // Promoted after the link was made, the successor is sent its grant and reads the request.
        let granted = try await waitFor {
            let states = try await dee.inviteLinks(in: w.groupID).map(\.state)
            let requests = try await dee.inviteRequests(in: w.groupID).count
            return states == [.active] && requests == 1
        }
        XCTAssertTrue(granted, "the promoted admin holds the generation and sees the request")

        _ = try await ada.waitForCommit(try await ada.demoteAdmin(ada.publicKey, in: w.groupID), timeout: .seconds(20))
        let emptied = try await ada.currentGroup(w.groupID).inviteLinks?.links
        XCTAssertEqual(emptied, [], "a self-demotion leaves no links")
        try await assertRetiredAndTold(w)
        await refused(.notPermitted, "not_admin", "the former admin making a replacement") { _ = try await ada.createInviteLink(in: w.groupID) }
        let deeRetired = try await waitFor { try await dee.inviteLinks(in: w.groupID).map(\.state) == [.retired] }
        XCTAssertTrue(deeRetired, "the successor's granted copy is retired with the entry")
        let successor = try await waitFor {
            let group = try await dee.currentGroup(w.groupID)
            return group.isAdmin && group.inviteLinks?.links == []
        }
        XCTAssertTrue(successor)
        let replacement = try await dee.createInviteLink(in: w.groupID, timeout: .seconds(20))
        XCTAssertEqual(replacement.state, .active)
        let replaced = try await waitFor { try await ada.currentGroup(w.groupID).inviteLinks?.links == [replacement.entry] }
        XCTAssertTrue(replaced, "the staying admin's replacement reached the former admin's state")
    }

    // MARK: Losing-branch invitation invalidation

    /// Two admins approve the same request at the same epoch (their Adds held back by the relay,
    /// then both stored): convergence selects one Add at both admins (one epoch, one member
    /// more, the same epoch authenticator), each ledger is realized with nothing in flight, a
    /// third approval at either is `invite_request_closed`, and the requester joins the selected
    /// branch and associates its join. The losing Add's Welcome is never sent: it was held until
    /// the pass selected the other Add, then dropped, and that Commit is recorded as replaced
    /// (PROTOCOL §5.13, "Welcome hold").
    func testTwoAdminsApprovingOneRequestAtOneEpochConvergeOnOneAdd() async throws {
        let (w, others) = try await world(adminSeed: 15, extraAdmins: [("dee", 16)])
        let ada = w.admin, dee = try XCTUnwrap(others.first), bob = w.requester
        let seen = try await waitFor { try await dee.inviteRequests(in: w.groupID).count == 1 }
        XCTAssertTrue(seen)
        let epoch = try await ada.currentGroup(w.groupID).epoch
        let welcomesBefore = try [ada, dee].map { n in try n.store.read { tx in try tx.outbound.count(purpose: .welcome) } }
        await homes.relay.setPolicy { $0.kind == MarmotProfile.groupEventKind ? .swallow : .accept }
        let approvedByAda = try await ada.decideInviteRequest(w.requestID, in: w.groupID, approve: true)
        let approvedByDee = try await dee.decideInviteRequest(w.requestID, in: w.groupID, approve: true)
        let fromAda = try XCTUnwrap(approvedByAda), fromDee = try XCTUnwrap(approvedByDee)
        XCTAssertNotEqual(fromAda, fromDee)
        let written = try await waitFor { await self.homes.relay.log.filter { $0.event.id == fromAda || $0.event.id == fromDee }.count >= 2 }
        XCTAssertTrue(written, "both Adds were written at one epoch")
        await homes.relay.setPolicy(nil)
        let converged = try await waitFor(30) {
            self.advance(5)
            let a = try await ada.currentGroup(w.groupID), d = try await dee.currentGroup(w.groupID)
            let settledA = try await ada.inviteRequests(in: w.groupID).first, settledD = try await dee.inviteRequests(in: w.groupID).first
            return a.epoch == epoch + 1 && d.epoch == epoch + 1 && a.state.epochAuthenticator == d.state.epochAuthenticator
                && settledA?.approving == false && settledD?.approving == false
        }
        XCTAssertTrue(converged, "one Add was selected at both admins")
        let members = try await ada.currentGroup(w.groupID).state.memberIdentities
        XCTAssertEqual(members.count, 3)
        XCTAssertEqual(members.filter { $0 == bob.publicKey.rawRepresentation }.count, 1)
        // The loser's approval is lost when its Add is replaced; the winner's shared `invited`
        // record (sent once its Add settled) realizes the request there too.
        let realized = try await waitFor {
            for admin in [ada, dee] { guard try await admin.inviteRequests(in: w.groupID).map(\.state) == [.realized] else { return false } }
            return true
        }
        XCTAssertTrue(realized, "the request is realized at both admins")
        for admin in [ada, dee] {
            await refused(.inviteRevoked, "invite_request_closed", "a third approval") {
                _ = try await admin.decideInviteRequest(w.requestID, in: w.groupID, approve: true)
            }
        }
        let joined = try await bob.waitForInviteLinkJoin(w.requestID, timeout: .seconds(20))
        XCTAssertNotNil(joined.groupID)
        let associated = try await waitFor { try await bob.inviteLinkJoin(w.requestID).status == .joined }
        XCTAssertTrue(associated)
        let epochAfter = try await ada.currentGroup(w.groupID).epoch
        XCTAssertEqual(epochAfter, epoch + 1, "no Add after the refusals")

        // The requester is on the selected branch: its epoch is the admins' epoch, not a twin.
        let selected = try await ada.currentGroup(w.groupID), atBob = try await bob.currentGroup(w.groupID)
        XCTAssertEqual(atBob.epoch, selected.epoch)
        XCTAssertEqual(atBob.state.epochAuthenticator, selected.state.epochAuthenticator, "the requester joined the selected branch")
        // Exactly one Add was selected; the loser's Commit is replaced and its Welcome deleted unsent.
        let adaWon = selected.selectedBranchHolds(commitEventID: fromAda, builtOn: epoch)
        XCTAssertNotEqual(adaWon, selected.selectedBranchHolds(commitEventID: fromDee, builtOn: epoch))
        let (loser, loserID) = adaWon ? (dee, fromDee) : (ada, fromAda)
        let (status, held) = try loser.store.read { tx in
            (try tx.pendingCommits.get(commitEventID: loserID)?.status, try tx.outbound.heldCommits())
        }
        XCTAssertEqual(status, PendingCommitRecord.Status.rolledBack, "the losing Add is recorded as replaced")
        XCTAssertEqual(held, [], "no Welcome is left held")
        let welcomes = try [ada, dee].map { n in try n.store.read { tx in try tx.outbound.count(purpose: .welcome) } }
        XCTAssertEqual(welcomes[adaWon ? 1 : 0], welcomesBefore[adaWon ? 1 : 0], "no Welcome of the losing Add is left")
        XCTAssertEqual(welcomes[adaWon ? 0 : 1], welcomesBefore[adaWon ? 0 : 1] + 1, "the selected Add's Welcome")
    }

    // MARK: Offer evidence

    /// An automatic link's request whose offered KeyPackage no relay has yet: the admin admits it
    /// (it lists it) but records the offer `unavailable` and adds nobody; once the requester's
    /// KeyPackage reaches the relay, the next check finds it `valid` and the automatic approval
    /// adds the requester (PROTOCOL §5.14.15, "Offer evidence").
    func testAnAutomaticLinkAddsNobodyUntilTheOfferIsValidated() async throws {
        let ada = try node("ada", seed: 21)
        let group = try await ada.createGroup(name: "club")
        let link = try await ada.createInviteLink(in: group.id, approval: .automatic, timeout: .seconds(20))
        let bob = try node("bob", seed: 22)
        var preview: InviteLinkPreview?
        let previewed = try await waitFor {
            preview = try? await bob.previewInviteLink(code: link.code.bech32m)
            return preview != nil
        }
        XCTAssertTrue(previewed)
        // The relay acknowledges KeyPackages but keeps none for now: the request (sent once its
        // KeyPackage is acknowledged) names an event nobody can fetch.
        await homes.relay.setPolicy { $0.kind == KeyPackageEvent.kind ? .discard : .accept }
        let started = try await bob.joinByInviteLink(code: link.code.bech32m, preview: try XCTUnwrap(preview).preview)
        let epoch = try await ada.currentGroup(group.id).epoch
        let unavailable = try await waitFor {
            guard let r = try await ada.inviteRequests(in: group.id).first else { return false }
            return r.offer == .unavailable(reason: "offer_not_found")
        }
        XCTAssertTrue(unavailable, "the admitted request's offer is recorded as missing")
        let listed = try await ada.inviteRequests(in: group.id)
        XCTAssertEqual(listed.map(\.state), [.open])
        XCTAssertEqual(listed.map(\.approving), [false], "no automatic approval of an unvalidated offer")
        let unchanged = try await ada.currentGroup(group.id).epoch
        XCTAssertEqual(unchanged, epoch, "no Add")

        await homes.relay.setPolicy(nil)
        // The KeyPackage reaches the relay late (another client of the requester's republishes it).
        let offered = await homes.relay.log.map(\.event).filter { $0.kind == KeyPackageEvent.kind && $0.pubkey == bob.publicKey.hex }
        XCTAssertFalse(offered.isEmpty, "the request's KeyPackage was offered to the relay")
        for event in offered { _ = await homes.relay.publish(event, timeout: .seconds(1)) }
        let joined = try await waitFor(40) {
            self.advance(5) // the admin's next check comes due
            return try await bob.inviteLinkJoin(started.requestID).status == .joined
        }
        XCTAssertTrue(joined, "validated, the offer is approved automatically and the requester joins")
        let valid = try await ada.inviteRequests(in: group.id).first?.offer
        XCTAssertEqual(valid, .valid)
        let members = try await ada.currentGroup(group.id).state.memberIdentities
        XCTAssertTrue(members.contains(bob.publicKey.rawRepresentation))
    }

    // MARK: An offline grant recipient

    /// The second admin is offline when the link is made and its grant sent; the creator is
    /// offline when the request comes. Started again, the second admin opens the grant from the
    /// group's history, admits the request with the granted inbox key and adds the requester with
    /// its own Add; a second approval is then `invite_request_closed`.
    func testAnOfflineAdminDecidesWithOnlyItsGrantedCode() async throws {
        let ada = try node("ada", seed: 12)
        let group = try await ada.createGroup(name: "club")
        let dee = try node("dee", seed: 13)
        let invite = try await ada.createInvite(groupID: group.id, singleUse: true, expiresIn: 3600)
        _ = try await dee.join(invite.url, timeout: .seconds(20))
        _ = try await ada.waitForCommit(try await ada.promoteAdmin(dee.publicKey, in: group.id), timeout: .seconds(20))
        let promoted = try await waitFor { try await dee.currentGroup(group.id).isAdmin }
        XCTAssertTrue(promoted)
        await stop(dee, at: 1)

        let groupEvents = [NostrFilter(kinds: [MarmotProfile.groupEventKind])]
        let before = await homes.relay.events(matching: groupEvents).count
        let link = try await ada.createInviteLink(in: group.id, timeout: .seconds(20))
        // The policy Commit and the grant (queued before createInviteLink returned) reach the
        // relay before the creator goes.
        let flushed = try await waitFor { await self.homes.relay.events(matching: groupEvents).count == before + 2 }
        XCTAssertTrue(flushed, "the creator published the grant")
        await stop(ada, at: 0)

        let bob = try node("bob", seed: 14)
        let preview = try await bob.previewInviteLink(code: link.code.bech32m)
        let started = try await bob.joinByInviteLink(code: link.code.bech32m, preview: preview.preview)
        let requestSent = try await waitFor { try await bob.inviteLinkJoins().first?.delivery == .acked }
        XCTAssertTrue(requestSent)

        let dee2 = try node("dee", seed: 13, restart: true)
        let granted = try await waitFor { try await dee2.inviteLinks(in: group.id).map(\.linkID) == [link.linkID] }
        XCTAssertTrue(granted, "the grant was read from the group's history")
        let admitted = try await waitFor { try await dee2.inviteRequests(in: group.id).count == 1 }
        XCTAssertTrue(admitted, "the granted inbox reads the request sent while nobody was online")
        let decided = try await dee2.decideInviteRequest(started.requestID, in: group.id, approve: true)
        let commit = try XCTUnwrap(decided)
        _ = try await dee2.waitForCommit(commit, timeout: .seconds(20))
        let joined = try await bob.waitForInviteLinkJoin(started.requestID, timeout: .seconds(20))
        let mlsGroupID = Hex.encode(try await dee2.currentGroup(group.id).state.groupID)
        XCTAssertEqual(joined.groupID, mlsGroupID)
        let associated = try await waitFor { try await bob.inviteLinkJoin(started.requestID).status == .joined }
        XCTAssertTrue(associated, "the granted admin's invited status associates the join")
        let author = try await bob.inviteLinkJoin(started.requestID).notices.map(\.author)
        XCTAssertEqual(author, [dee2.publicKey.hex])
        await refused(.inviteRevoked, "invite_request_closed", "a second approval by the granted admin") {
            _ = try await dee2.decideInviteRequest(started.requestID, in: group.id, approve: true)
        }
    }

    // MARK: Admin removal with stale grants

    /// Removing a granted admin's leaf retires every generation in the same Commit: the creator's
    /// link is `retired`, the open request `revoked` (the requester told `retired`), a request
    /// arriving later is refused `invite_revoked`, and the removed admin's stale copy decides
    /// nothing. A fresh link works again for a fresh request.
    func testRemovingAGrantedAdminRetiresTheLinkAndItsStaleGrant() async throws {
        let (w, others) = try await world(adminSeed: 6, extraAdmins: [("dee", 7)])
        let ada = w.admin, dee = try XCTUnwrap(others.first)
        let granted = try await waitFor { try await dee.inviteLinks(in: w.groupID).map(\.state) == [.active] }
        XCTAssertTrue(granted)
        let inbox = Hex.encode(w.link.code.inboxPublicKey)
        let inboxWraps = await homes.relay.events(matching: [NostrFilter(kinds: [GiftWrap.wrapKind]).tag("p", [inbox])])
        let request = try XCTUnwrap(inboxWraps.first)

        _ = try await ada.waitForCommit(try await ada.removeMember(dee.publicKey, groupID: w.groupID), timeout: .seconds(20))
        let entries = try await ada.currentGroup(w.groupID).inviteLinks?.links
        XCTAssertEqual(entries, [], "the removal rotated every generation")
        try await assertRetiredAndTold(w)
        await refused(.inviteRevoked, "invite_link_inactive", "the old request replayed to the creator") {
            _ = try await ada.handleInviteRequestWrap(request)
        }
        await refused(.inviteRevoked, "invite_link_inactive", "approving a request of the retired generation") {
            _ = try await ada.decideInviteRequest(w.requestID, in: w.groupID, approve: true)
        }
        let removed = try await waitFor { try await dee.currentGroup(w.groupID).isRemoved }
        XCTAssertTrue(removed)
        do {
            _ = try await dee.decideInviteRequest(w.requestID, in: w.groupID, approve: true)
            XCTFail("a removed admin's stale grant decides nothing")
        } catch {
            XCTAssertTrue([.notAMember, .notPermitted].contains(error.code), "\(error)")
        }
        do {
            _ = try await dee.handleInviteRequestWrap(request)
            XCTFail("a removed admin's stale inbox admits nothing")
        } catch {
            XCTAssertTrue([.notAMember, .notPermitted, .inviteRevoked].contains(error.code), "\(error)")
        }
        let members = try await ada.currentGroup(w.groupID).state.memberIdentities.count
        XCTAssertEqual(members, 1, "nobody was added")

        // A fresh generation admits a fresh request.
        let fresh = try await ada.createInviteLink(in: w.groupID, timeout: .seconds(20))
        XCTAssertNotEqual(fresh.code.inboxPublicKey, w.link.code.inboxPublicKey)
        let entries2 = try await ada.currentGroup(w.groupID).inviteLinks?.links
        XCTAssertEqual(entries2, [fresh.entry])
    }

    /// `body` throws an ``InviteKitError`` with `code` and `underlying`.
    private func refused(_ code: InviteKitError.Code, _ underlying: String, _ what: String, _ body: () async throws -> Void) async {
        do {
            try await body()
            XCTFail("\(what): not refused")
        } catch let e as InviteKitError {
            XCTAssertEqual(e.code, code, "\(what): \(e)")
            XCTAssertEqual(e.underlyingCode, underlying, "\(what): \(e)")
        } catch {
            XCTFail("\(what): \(error)")
        }
    }
}
