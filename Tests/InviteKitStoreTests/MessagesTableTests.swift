import XCTest
@testable import InviteKitStore

/// `messages` from schema 8 (docs/storage.md §6): kinds and tags kept, found by app event id or a
/// prefix of it, relations found by target, deletions applied, retention's end removes rows.
final class MessagesTableTests: XCTestCase {
    private func message(_ id: String, app: String, kind: Int = 9, tags: [[String]] = [], refersTo: String? = nil,
                         expiresAt: Int64? = nil, at t: Int64 = 10, group: String = "g") -> StoredMessage {
        StoredMessage(eventID: id, appEventID: app, groupID: group, sender: [1], createdAt: t, kind: kind, content: "c-" + id, tags: tags,
                      refersTo: refersTo, expiresAt: expiresAt, outgoing: false, status: .received)
    }

    func testKindAndTagsRoundTripAndAppEventIDsFindMessages() throws {
        let store = try Store.inMemory()
        let tags = [["e", "aa11"], ["q", "aa11"], ["custom", "x", "y"]]
        try store.write { tx in
            try tx.messages.insert(message("m1", app: "aa11", kind: 30023, tags: tags, expiresAt: 99))
            try tx.messages.insert(message("m2", app: "aa12", kind: 7, tags: [["e", "aa11"]], refersTo: "aa11"))
        }
        try store.read { tx in
            let m = try XCTUnwrap(try tx.messages.get(eventID: "m1"))
            XCTAssertEqual(m.kind, 30023)
            XCTAssertEqual(m.tags, tags)
            XCTAssertEqual(m.expiresAt, 99)
            XCTAssertEqual(try tx.messages.find(groupID: "g", appEventID: "aa12")?.eventID, "m2")
            XCTAssertNil(try tx.messages.find(groupID: "other", appEventID: "aa12"))
            XCTAssertEqual(try tx.messages.find(groupID: "g", appEventIDPrefix: "aa1").count, 2, "ambiguous")
            XCTAssertEqual(try tx.messages.find(groupID: "g", appEventIDPrefix: "aa12").map(\.eventID), ["m2"])
            XCTAssertEqual(try tx.messages.find(groupID: "g", appEventIDPrefix: "a%").count, 0, "not hex")
            XCTAssertEqual(try tx.messages.referring(groupID: "g", to: ["aa11"]).map(\.eventID), ["m2"])
            XCTAssertEqual(try tx.messages.history(groupID: "g", excludingKinds: [7]).map(\.eventID), ["m1"])
        }
    }

    func testDeletionEmptiesTheTargetAndExpiryRemovesRows() throws {
        let store = try Store.inMemory()
        try store.write { tx in
            try tx.messages.insert(message("m1", app: "a1", tags: [["p", "x"]]))
            try tx.messages.insert(message("m2", app: "a2", expiresAt: 50))
            try tx.messages.insert(message("m3", app: "a3", expiresAt: 70, group: "h"))
            try tx.messages.markDeleted(groupID: "g", appEventID: "a1", at: 20)
        }
        let deleted = try XCTUnwrap(try store.read { tx in try tx.messages.get(eventID: "m1") })
        XCTAssertEqual(deleted.content, "")
        XCTAssertEqual(deleted.tags, [])
        XCTAssertEqual(deleted.deletedAt, 20)
        XCTAssertEqual(try store.read { tx in try tx.messages.history(groupID: "g", visibleAt: 50).map(\.eventID) }, ["m1"], "expired rows are not shown")
        XCTAssertEqual(try store.read { tx in try tx.messages.history(groupID: "g", visibleAt: 49).map(\.eventID) }, ["m1", "m2"])
        XCTAssertEqual(try store.read { tx in try tx.messages.earliestExpiry() }, 50)
        XCTAssertEqual(try store.write { tx in try tx.messages.deleteExpired(now: 49) }, [:])
        XCTAssertEqual(try store.write { tx in try tx.messages.deleteExpired(now: 60) }, ["g": 1])
        XCTAssertNil(try store.read { tx in try tx.messages.get(eventID: "m2") })
        XCTAssertEqual(try store.read { tx in try tx.messages.earliestExpiry() }, 70)
    }
}
