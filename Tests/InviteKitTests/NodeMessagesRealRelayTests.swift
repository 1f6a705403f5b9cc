import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKitCrypto
@testable import InviteKit

/// Reactions, replies, edits, deletions and retention between two homes over the real
/// nostr-relay on loopback (PROTOCOL §5.15; issue 32).
final class NodeMessagesRealRelayTests: RealRelayNodeTestCase {

    /// A node on its own clock: `skew` seconds ahead of real time, changeable by the test.
    private func node(_ name: String, seed: UInt64, skew: LockedBox<Int64>? = nil, initialize: Bool = true) throws -> InviteKitNode {
        let skew = skew ?? LockedBox(0)
        return try node(name, seed: seed, initialize: initialize, clock: { UnixTime.now() + skew.withLock { $0 } })
    }

    /// Ada's group with Dee in it, both running.
    private func pair(deeSkew: LockedBox<Int64>? = nil) async throws -> (ada: InviteKitNode, dee: InviteKitNode, group: String, runs: [Task<Void, Error>]) {
        let ada = try node("ada", seed: 1), dee = try node("dee", seed: 2, skew: deeSkew)
        let runs = [ada, dee].map { n in Task { try await n.run() } }
        let group = try await ada.createGroup(name: "club")
        let invite = try await ada.createInvite(groupID: group.id, singleUse: false, expiresIn: 3600)
        _ = try await dee.join(invite.url, timeout: .seconds(60))
        return (ada, dee, group.id, runs)
    }

    private func received(_ n: InviteKitNode, _ group: String, appEventID: String?) async throws -> Bool {
        try await n.history(of: group).contains { $0.appEventID == appEventID }
    }

    func testReactReplyEditDeleteReachTheOtherHomeLinkedToTheirTargets() async throws {
        let (ada, dee, group, runs) = try await pair()
        defer { for r in runs { r.cancel() } }
        let hello = try await ada.send(kind: 9, content: "hello", to: group)
        let bye = try await ada.send(kind: 9, content: "bye", to: group)
        let custom = try await ada.send(kind: 30078, content: "{}", tags: [["d", "app-state"], ["x", "1", "2"]], to: group)
        var arrived = try await waitFor(30) { try await self.received(dee, group, appEventID: custom.appEventID) }
        XCTAssertTrue(arrived, "ada's messages reached dee")
        let deeCopy = try await dee.history(of: group).first { $0.appEventID == custom.appEventID }
        XCTAssertEqual(deeCopy?.kind, 30078, "any kind is kept")
        XCTAssertEqual(deeCopy?.tags, [["d", "app-state"], ["x", "1", "2"]], "tags are kept")
        // The feed hands out the same rows, kind and tags included.
        var fed: StoredMessage?
        for await m in dee.feed(since: 0) where m.appEventID == custom.appEventID {
            fed = m
            break
        }
        XCTAssertEqual(fed?.kind, 30078)
        XCTAssertEqual(fed?.tags, deeCopy?.tags)

        // Dee reacts and replies, naming the message by a prefix of its app event id.
        let helloID = try XCTUnwrap(hello.appEventID)
        let reaction = try await dee.react("👍", to: String(helloID.prefix(12)), in: group)
        let reply = try await dee.reply("hi ada", to: hello.eventID, in: group)
        // Dee may not edit or delete Ada's message.
        do {
            _ = try await dee.edit(helloID, newText: "mine now", in: group)
            XCTFail("a non-author's edit was sent")
        } catch {
            XCTAssertEqual(error.code, .notPermitted)
            XCTAssertEqual(error.underlyingCode, "not_author")
        }
        do {
            _ = try await dee.delete(helloID, in: group)
            XCTFail("a non-author's deletion was sent")
        } catch {
            XCTAssertEqual(error.code, .notPermitted)
            XCTAssertEqual(error.underlyingCode, "not_author")
        }
        let edit = try await ada.edit(helloID, newText: "hello, all", in: group)
        let deletion = try await ada.delete(try XCTUnwrap(bye.appEventID), in: group)

        for n in [ada, dee] {
            arrived = try await waitFor(30) {
                let ids = Set(try await n.history(of: group).compactMap(\.appEventID))
                return [reaction, reply, edit, deletion].allSatisfy { ids.contains($0.appEventID ?? "") }
            }
            XCTAssertTrue(arrived, "every relation is in \(n === ada ? "ada" : "dee")'s history")
            let timeline = try await n.timeline(of: group)
            let first = try XCTUnwrap(timeline.first { $0.message.appEventID == helloID })
            XCTAssertEqual(first.text, "hello, all")
            XCTAssertTrue(first.isEdited)
            XCTAssertEqual(first.reactions.map(\.content), ["👍"])
            XCTAssertEqual(first.reactions.first?.sender, dee.publicKey.rawRepresentation)
            let answer = try XCTUnwrap(timeline.first { $0.message.appEventID == reply.appEventID })
            XCTAssertEqual(answer.replyTo, helloID)
            XCTAssertEqual(answer.message.tags, [["e", helloID], ["q", helloID]])
            let gone = try XCTUnwrap(timeline.first { $0.message.appEventID == bye.appEventID })
            XCTAssertTrue(gone.isDeleted)
            XCTAssertEqual(gone.message.content, "", "the deleted text left the home")
            XCTAssertFalse(timeline.contains { MessageRelation.annotationKinds.contains($0.message.kind) }, "reactions, edits, deletions are no rows")
            let kinds = Set(try await n.history(of: group).map(\.kind))
            XCTAssertTrue([5, 7, 9, 1009, 30078].allSatisfy(kinds.contains), "raw history keeps every kind: \(kinds)")
        }
    }

    func testAnEditOrDeletionByAnotherMemberIsRefusedOnReceipt() async throws {
        let (ada, dee, group, runs) = try await pair()
        defer { for r in runs { r.cancel() } }
        let hello = try await ada.send(kind: 9, content: "hello", to: group)
        let helloID = try XCTUnwrap(hello.appEventID)
        var arrived = try await waitFor(30) { try await self.received(dee, group, appEventID: helloID) }
        XCTAssertTrue(arrived)

        let events = ada.events(bufferingNewest: 256)
        // Dee's node refuses these on send; a forging client skips that check.
        let forgedEdit = try await dee.sendMessage(EventTemplate(kind: MessageRelation.editKind, content: "forged", tags: [["e", helloID]]),
                                                   relation: nil, groupID: group)
        let forgedDelete = try await dee.sendMessage(EventTemplate(kind: MessageRelation.deletionKind, content: "", tags: [["e", helloID]]),
                                                     relation: nil, groupID: group)
        await dee.wake()
        let after = try await dee.send(kind: 9, content: "after", to: group)
        arrived = try await waitFor(30) { try await self.received(ada, group, appEventID: after.appEventID) }
        XCTAssertTrue(arrived, "dee's later message arrived, so the forgeries were processed before it")

        var refused: [String: InviteKitError] = [:]
        let wanted = Set([forgedEdit.eventID, forgedDelete.eventID])
        while refused.count < wanted.count {
            let next = await NodeEventWait.first(in: events, timeout: .seconds(10)) { event -> [String: InviteKitError]? in
                if case .eventRejected(let id, let error) = event, wanted.contains(id) { return [id: error] }
                return nil
            }
            guard let next else { break }
            refused.merge(next) { a, _ in a }
        }
        XCTAssertEqual(Set(refused.keys), wanted)
        for e in refused.values {
            XCTAssertEqual(e.code, .notPermitted)
            XCTAssertEqual(e.underlyingCode, "not_author")
        }
        let history = try await ada.history(of: group)
        XCTAssertFalse(history.contains { $0.kind == MessageRelation.editKind || $0.kind == MessageRelation.deletionKind }, "never stored")
        let timeline = try await ada.timeline(of: group)
        let first = try XCTUnwrap(timeline.first { $0.message.appEventID == helloID })
        XCTAssertEqual(first.text, "hello")
        XCTAssertFalse(first.isEdited)
        XCTAssertFalse(first.isDeleted)
    }

    /// Retention on: an expired message leaves the store and the history, and stays gone after a
    /// restart that catches up from the relay again.
    func testAnExpiredMessageIsRemovedAndNotShownAgainAfterARestart() async throws {
        let skew = LockedBox<Int64>(0)
        let (ada, firstDee, group, firstRuns) = try await pair(deeSkew: skew)
        var dee = firstDee, runs = firstRuns
        defer { for r in runs { r.cancel() } }
        do {
            _ = try await dee.setMessageRetention(60, groupID: group)
            XCTFail("a member set the retention")
        } catch {
            XCTAssertEqual(error.code, .notPermitted)
        }
        let commit = try await ada.setMessageRetention(60, groupID: group)
        _ = try await ada.waitForCommit(commit, timeout: .seconds(30))
        var ok = try await waitFor(30) { try await dee.messageRetention(of: group) == 60 }
        XCTAssertTrue(ok, "dee applied the retention commit")

        let vanishing = try await ada.send(kind: 9, content: "vanishing", to: group)
        XCTAssertEqual(vanishing.expiresAt, vanishing.createdAt + 60)
        ok = try await waitFor(30) { try await self.received(dee, group, appEventID: vanishing.appEventID) }
        XCTAssertTrue(ok)
        let copy = try await dee.history(of: group).first { $0.appEventID == vanishing.appEventID }
        XCTAssertEqual(copy?.expiresAt, vanishing.createdAt + 60, "the receiver pins the same expiry")

        let events = dee.events(bufferingNewest: 256)
        skew.withLock { $0 = 120 }
        let expired = await NodeEventWait.first(in: events, timeout: .seconds(10)) { event -> Bool? in
            if case .messagesExpired(let g, let n) = event, g == group { return n >= 1 }
            return nil
        }
        XCTAssertEqual(expired, true, "the run loop removed it")
        let stored = try dee.store.read { tx in try tx.messages.get(eventID: copy?.eventID ?? "") }
        XCTAssertNil(stored, "gone from the store")
        ok = try await received(dee, group, appEventID: vanishing.appEventID)
        XCTAssertFalse(ok, "gone from the history")

        // A restart catches up from the relay, which still holds the event: it is not shown again.
        runs[1].cancel()
        _ = await runs[1].result
        await dee.shutdown()
        dee = try node("dee", seed: 2, skew: skew, initialize: false)
        let rerun = Task { [dee] in try await dee.run() }
        runs.append(rerun)
        let probe = try await ada.send(kind: 9, content: "probe", to: group)
        _ = try await waitFor(20) { try dee.store.read { tx in try tx.processedRequests.contains(wrapID: probe.eventID) } }
        ok = try await received(dee, group, appEventID: vanishing.appEventID)
        XCTAssertFalse(ok, "not re-shown after a restart")
        let deeGroup = try await dee.group(group).id
        XCTAssertEqual(try dee.store.read { tx in try tx.messages.count(groupID: deeGroup) }, 0, "nothing expired came back")
    }

    /// A message that arrives after its expiry (the receiver's clock is past it) is never stored,
    /// though its event is processed.
    func testAMessageReceivedAfterItsExpiryIsNeverStored() async throws {
        let skew = LockedBox<Int64>(0)
        let (ada, dee, group, runs) = try await pair(deeSkew: skew)
        defer { for r in runs { r.cancel() } }
        let commit = try await ada.setMessageRetention(30, groupID: group)
        _ = try await ada.waitForCommit(commit, timeout: .seconds(30))
        var ok = try await waitFor(30) { try await dee.messageRetention(of: group) == 30 }
        XCTAssertTrue(ok)
        skew.withLock { $0 = 90 }
        // The run loop would remove a stored expired message at once: that it was never stored
        // shows in the events, which announce every stored message.
        let events = dee.events(bufferingNewest: 256)
        let late = try await ada.send(kind: 9, content: "too late", to: group)
        ok = try await waitFor(30) { try dee.store.read { tx in try tx.processedRequests.contains(wrapID: late.eventID) } }
        XCTAssertTrue(ok, "dee processed the event")
        let announced = await NodeEventWait.first(in: events, timeout: .seconds(2)) { event -> Bool? in
            switch event {
            case .messageReceived(let m) where m.appEventID == late.appEventID: return true
            case .messagesExpired: return true
            default: return nil
            }
        }
        XCTAssertNil(announced, "neither stored nor removed: never stored")
        XCTAssertNil(try dee.store.read { tx in try tx.messages.get(eventID: late.eventID) }, "never stored")
        let deeGroup = try await dee.group(group).id
        XCTAssertNil(try dee.store.read { tx in try tx.messages.find(groupID: deeGroup, appEventID: late.appEventID ?? "") })
        ok = try await received(dee, group, appEventID: late.appEventID)
        XCTAssertFalse(ok)
    }
}
