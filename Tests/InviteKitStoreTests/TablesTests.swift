import XCTest
import InviteKitCrypto
@testable import InviteKitStore

final class TablesTests: XCTestCase {
    private func group(_ id: String, tag: String? = "t1") -> StoredGroup {
        StoredGroup(id: id, nostrGroupID: "n-" + id, name: "G", engine: "legacy", engineVersion: 1,
                    state: SecureBytes(copying: [1, 2, 3]), epoch: 0, currentTag: tag, relays: ["ws://a", "ws://b"], updatedAt: 1)
    }

    func testGroupsRoundTripOpaqueStateAndFindByEitherID() throws {
        let store = try Store.inMemory()
        try store.write { tx in try tx.groups.save(group("g1")) }
        try store.write { tx in try tx.groups.updateState(id: "g1", state: SecureBytes(copying: [9, 9]), epoch: 4, now: 2) }
        let g = try XCTUnwrap(try store.read { tx in try tx.groups.find("n-g1") })
        XCTAssertEqual(g.state.exportBytes(), [9, 9])
        XCTAssertEqual(g.epoch, 4)
        XCTAssertEqual(g.relays, ["ws://a", "ws://b"])
        XCTAssertThrowsError(try store.write { tx in try tx.groups.updateState(id: "nope", state: SecureBytes(copying: [1]), epoch: 1, now: 2) }) {
            XCTAssertEqual(($0 as? StoreError)?.code, .notFound)
        }
    }

    /// A member removed and added again: its group's removal is cleared.
    func testClearingARemovalMakesTheGroupReadAgain() throws {
        let store = try Store.inMemory()
        try store.write { tx in
            try tx.groups.save(group("g1"))
            try tx.groups.markRemoved(id: "g1", now: 5)
        }
        XCTAssertEqual(try store.read { tx in try tx.groups.get(id: "g1")?.removedAt }, 5)
        try store.write { tx in try tx.groups.clearRemoved(id: "g1") }
        XCTAssertNil(try store.read { tx in try tx.groups.get(id: "g1")?.removedAt })
    }

    /// When a group was last joined through a Welcome: what a node restores `joinedAt` from when
    /// no pending join records it (an admin's add, a rejoin).
    func testLastWelcomeByGroupTakesEachGroupsLatestWelcome() throws {
        let store = try Store.inMemory()
        try store.write { tx in
            for (rumor, outcome, group, at) in [("a", "welcome", "g1", 3), ("b", "welcome", "g1", 9), ("c", "accepted", "g2", 4), ("d", "welcome", "g3", 2)] {
                _ = try tx.processedRequests.record(ProcessedRequest(rumorID: rumor, wrapID: "w" + rumor, outcome: outcome, groupID: group,
                                                                     processedAt: Int64(at)))
            }
        }
        XCTAssertEqual(try store.read { tx in try tx.processedRequests.lastWelcomeByGroup() }, ["g1": 9, "g3": 2])
    }

    /// `group_tree_chunks` (docs/storage.md §6): chunks written by difference, cut to the tree's
    /// width, read in order; a gap is `store_corrupt`; the group's deletion takes them along.
    func testTreeChunksAreWrittenByDifferenceAndReadInOrder() throws {
        let store = try Store.inMemory()
        try store.write { tx in
            try tx.groups.save(group("g1"))
            try tx.groups.save(group("g2"))
            try tx.treeChunks.write(groupID: "g1", changed: [(0, [0]), (1, [1]), (2, [2])], count: 3)
            try tx.treeChunks.write(groupID: "g2", changed: [(0, [7])], count: 1)
        }
        try store.write { tx in try tx.treeChunks.write(groupID: "g1", changed: [(1, [1, 1])], count: 3) }
        XCTAssertEqual(try store.read { tx in try tx.treeChunks.all(groupID: "g1") }, [[0], [1, 1], [2]])
        // A narrower tree: the chunks past its width go, a changed one past it is not written.
        try store.write { tx in try tx.treeChunks.write(groupID: "g1", changed: [(0, [9]), (2, [5])], count: 1) }
        XCTAssertEqual(try store.read { tx in try tx.treeChunks.all(groupID: "g1") }, [[9]])
        XCTAssertEqual(try store.read { tx in try tx.treeChunks.all(groupID: "g2") }, [[7]], "another group's chunks are its own")
        XCTAssertEqual(try store.read { tx in try tx.treeChunks.all(groupID: "none") }, [])
        try store.write { tx in try tx.treeChunks.write(groupID: "g1", changed: [(2, [2])], count: 3) }
        XCTAssertThrowsError(try store.read { tx in try tx.treeChunks.all(groupID: "g1") }) {
            XCTAssertEqual(($0 as? StoreError)?.code, .corrupt, "chunk 1 is missing")
        }
        try store.write { tx in try tx.groups.delete(id: "g1") }
        XCTAssertEqual(try store.read { tx in try tx.treeChunks.all(groupID: "g1") }, [])
    }

    /// `group_seen` (docs/storage.md §6): values inserted per event, read oldest first; the rows
    /// of epochs below the window and an epoch's evicted oldest go; a value inserted again takes
    /// its new place; the group's deletion takes them along; a value not of 32 bytes is refused.
    func testSeenValuesFollowTheLogsChanges() throws {
        let store = try Store.inMemory()
        func v(_ epoch: UInt64, _ kind: Int, _ byte: UInt8, _ seq: UInt64) -> StoredSeenValue {
            StoredSeenValue(epoch: epoch, kind: kind, value: [UInt8](repeating: byte, count: 32), sequence: seq)
        }
        let rows = (0..<200).map { i in v(UInt64(i / 50), i % 2, UInt8(i), UInt64(i)) }
        try store.write { tx in
            try tx.groups.save(group("g1"))
            try tx.groups.save(group("g2"))
            try tx.groupSeen.write(groupID: "g1", prunedBelow: nil, evictedThrough: [:], added: rows)
            try tx.groupSeen.write(groupID: "g2", prunedBelow: nil, evictedThrough: [:], added: [v(0, 0, 1, 0)])
        }
        XCTAssertEqual(try store.read { tx in try tx.groupSeen.all(groupID: "g1") }, rows, "more rows than one INSERT takes, in order")
        try store.write { tx in
            try tx.groupSeen.write(groupID: "g1", prunedBelow: 2, evictedThrough: [2: 109], added: [v(3, 1, 199, 200), v(3, 0, 250, 201)])
        }
        let left = try store.read { tx in try tx.groupSeen.all(groupID: "g1") }
        XCTAssertEqual(left.map(\.sequence), Array(110..<199) + [200, 201], "epochs 0 and 1 and epoch 2's oldest went; value 199 moved")
        XCTAssertEqual(left.last(where: { $0.value[0] == 199 })?.sequence, 200)
        XCTAssertEqual(try store.read { tx in try tx.groupSeen.count(groupID: "g2") }, 1, "another group's values are its own")
        XCTAssertThrowsError(try store.write { tx in
            try tx.groupSeen.write(groupID: "g2", prunedBelow: nil, evictedThrough: [:], added: [StoredSeenValue(epoch: 0, kind: 0, value: [1], sequence: 1)])
        })
        try store.write { tx in try tx.groups.delete(id: "g1") }
        XCTAssertEqual(try store.read { tx in try tx.groupSeen.count(groupID: "g1") }, 0)
    }

    func testRotatingTheTagRevokesEarlierInvites() throws {
        let store = try Store.inMemory()
        try store.write { tx in
            try tx.groups.save(group("g1", tag: "t1"))
            try tx.invites.insert(StoredInvite(tag: "t1", groupID: "g1", format: .signed, url: "u1", singleUse: true, expiresAt: 99, createdAt: 1))
        }
        try store.write { tx in
            try tx.groups.setTag(id: "g1", tag: "t2", now: 5)
            try tx.invites.insert(StoredInvite(tag: "t2", groupID: "g1", format: .signed, url: "u2", singleUse: false, expiresAt: nil, createdAt: 5))
        }
        let invites = try store.read { tx in try tx.invites.forGroup("g1") }
        XCTAssertEqual(invites.map(\.tag), ["t1", "t2"])
        XCTAssertEqual(invites[0].revokedAt, 5)
        XCTAssertNil(invites[1].revokedAt)
        XCTAssertEqual(try store.read { tx in try tx.groups.get(id: "g1")?.currentTag }, "t2")
    }

    func testKeyPackagesConsumeRetiresAllButLastResort() throws {
        let store = try Store.inMemory()
        try store.write { tx in
            try tx.keyPackages.save(reference: [1], eventID: "e1", bundle: SecureBytes(copying: [10]), lastResort: false, now: 1)
            try tx.keyPackages.save(reference: [2], eventID: "e2", bundle: SecureBytes(copying: [20]), lastResort: true, now: 2)
        }
        try store.write { tx in
            try tx.keyPackages.consume(reference: [1])
            try tx.keyPackages.consume(reference: [2])
        }
        try store.read { tx in
            XCTAssertNil(try tx.keyPackages.bundle(reference: [1]))
            XCTAssertEqual(try tx.keyPackages.bundle(reference: [2])?.exportBytes(), [20])
            XCTAssertEqual(try tx.keyPackages.references(), [[2]])
        }
    }

    func testProcessedRequestIsRecordedOnceAndFoundByWrapID() throws {
        let store = try Store.inMemory()
        let r = ProcessedRequest(rumorID: "r", wrapID: "w", outcome: "accepted", groupID: "g", processedAt: 1)
        XCTAssertTrue(try store.write { tx in try tx.processedRequests.record(r) })
        XCTAssertFalse(try store.write { tx in try tx.processedRequests.record(r) })
        XCTAssertTrue(try store.read { tx in try tx.processedRequests.contains(wrapID: "w") })
        XCTAssertEqual(try store.read { tx in try tx.processedRequests.count() }, 1)
    }

    func testPendingCommitResolvesOnceAndWipesItsPayload() throws {
        let store = try Store.inMemory()
        try store.write { tx in
            try tx.groups.save(group("g1"))
            try tx.pendingCommits.insert(PendingCommitRecord(commitEventID: "c1", groupID: "g1", epoch: 0, payload: SecureBytes(copying: [7]), createdAt: 1))
        }
        XCTAssertEqual(try store.read { tx in try tx.pendingCommits.waiting().map(\.commitEventID) }, ["c1"])
        try store.write { tx in try tx.pendingCommits.resolve(commitEventID: "c1", as: .confirmed, now: 2) }
        XCTAssertThrowsError(try store.write { tx in try tx.pendingCommits.resolve(commitEventID: "c1", as: .rolledBack, now: 3) }) {
            XCTAssertEqual(($0 as? StoreError)?.code, .invalidTransition)
        }
        let c = try XCTUnwrap(try store.read { tx in try tx.pendingCommits.get(commitEventID: "c1") })
        XCTAssertEqual(c.status, .confirmed)
        XCTAssertEqual(c.payload.count, 0)
        XCTAssertTrue(try store.read { tx in try tx.pendingCommits.waiting() }.isEmpty)
    }

    func testMessagesDedupeByEventIDAndReadInCreatedAtThenIDOrder() throws {
        let store = try Store.inMemory()
        func m(_ id: String, _ t: Int64) -> StoredMessage {
            StoredMessage(eventID: id, groupID: "g", sender: [1], createdAt: t, kind: 9, content: id, outgoing: false, status: .received)
        }
        try store.write { tx in
            for msg in [m("c", 5), m("a", 7), m("b", 5), m("d", 1)] { XCTAssertTrue(try tx.messages.insert(msg)) }
            XCTAssertFalse(try tx.messages.insert(m("b", 5)), "an echo of the same event is not stored twice")
            XCTAssertFalse(try tx.messages.insert(m("a", 99)))
        }
        let all = try store.read { tx in try tx.messages.history(groupID: "g") }
        // Within one second, the order of arrival (the local sequence), not the event id.
        XCTAssertEqual(all.map(\.eventID), ["d", "c", "b", "a"])
        XCTAssertEqual(all.map(\.sequence), [4, 1, 3, 2])
        let after = try store.read { tx in try tx.messages.history(groupID: "g", after: (5, 1)) }
        XCTAssertEqual(after.map(\.eventID), ["b", "a"])
        let before = try store.read { tx in try tx.messages.history(groupID: "g", before: (7, 2), limit: 2) }
        XCTAssertEqual(before.map(\.eventID), ["c", "b"])
        XCTAssertEqual(try store.read { tx in try tx.messages.count(groupID: "g") }, 4)
    }

    func testPendingJoinEndsOnceWithTheRawJoinError() throws {
        let store = try Store.inMemory()
        let join = PendingJoinRecord(id: "j", inviteURL: "u", inviteTag: "t", inviter: [1], relays: ["ws://a"], keyPackageRef: [2],
                                     keyPackageEventID: "kp", requestEventID: "w", createdAt: 1, updatedAt: 1)
        try store.write { tx in try tx.pendingJoins.insert(join) }
        XCTAssertEqual(try store.read { tx in try tx.pendingJoins.active().map(\.id) }, ["j"])
        try store.write { tx in try tx.pendingJoins.markFailed(id: "j", errorType: "single_use_consumed", errorTag: "t", reason: nil, at: 9, now: 10) }
        XCTAssertThrowsError(try store.write { tx in try tx.pendingJoins.markJoined(id: "j", groupID: "g", now: 11) }) {
            XCTAssertEqual(($0 as? StoreError)?.code, .invalidTransition)
        }
        let j = try XCTUnwrap(try store.read { tx in try tx.pendingJoins.get(id: "j") })
        XCTAssertEqual(j.state, .failed)
        XCTAssertEqual(j.errorType, "single_use_consumed")
        XCTAssertEqual(j.errorAt, 9)
    }
}
