import XCTest
import InviteKitTestSupport
@testable import InviteKit

/// PROTOCOL §5.15: how reactions, replies, edits and deletions are encoded and read back, the
/// authorship rule, and how a timeline folds them into their targets.
final class MessageRelationTests: XCTestCase {
    private let target = String(repeating: "ab", count: 32)
    private let other = String(repeating: "cd", count: 32)
    private let ada: [UInt8] = Array(repeating: 1, count: 32), bob: [UInt8] = Array(repeating: 2, count: 32)

    func testEachRelationEncodesAsMDKWritesItAndReadsBack() throws {
        let cases: [(MessageRelation, Int, [[String]], String)] = [
            (.reaction(to: target, emoji: "👍"), 7, [["e", target]], "👍"),
            (.reply(to: target, text: "yes"), 9, [["e", target], ["q", target]], "yes"),
            (.edit(of: target, text: "fixed"), 1009, [["e", target]], "fixed"),
            (.deletion(of: [target, other]), 5, [["e", target], ["e", other]], ""),
        ]
        for (relation, kind, tags, content) in cases {
            let t = try relation.template(createdAt: 10)
            XCTAssertEqual(t.kind, kind, "\(relation)")
            XCTAssertEqual(t.tags, tags, "\(relation)")
            XCTAssertEqual(t.content, content, "\(relation)")
            XCTAssertEqual(MessageRelation(kind: t.kind, tags: t.tags, content: t.content), relation)
        }
    }

    func testTagsThatNameNoEventLeaveAPlainMessage() {
        XCTAssertNil(MessageRelation(kind: 9, tags: [["p", target]], content: "hi"), "a mention is no reply")
        XCTAssertNil(MessageRelation(kind: 7, tags: [["e", "AB"]], content: "+"), "not an event id")
        XCTAssertNil(MessageRelation(kind: 7, tags: [["e", target.uppercased()]], content: "+"), "ids are lowercase")
        XCTAssertNil(MessageRelation(kind: 1009, tags: [["e", target], ["e", other]], content: "x"), "an edit names one target")
        XCTAssertNil(MessageRelation(kind: 30023, tags: [["e", target]], content: "x"), "other kinds are messages")
        XCTAssertNil(MessageRelation(kind: 7, tags: [["e"]], content: "+"))
        // NIP-25: the last `e` tag is the reacted-to event.
        XCTAssertEqual(MessageRelation(kind: 7, tags: [["e", other], ["e", target]], content: "+"), .reaction(to: target, emoji: "+"))
    }

    func testSendRefusesEmptyOrOversizedOrControlReactionsAndEmptyText() {
        for relation: MessageRelation in [.reaction(to: target, emoji: ""), .reaction(to: target, emoji: String(repeating: "x", count: 65)),
                                          .reaction(to: target, emoji: "\u{1b}[31m"), .reply(to: target, text: ""), .edit(of: target, text: ""),
                                          .reaction(to: "nope", emoji: "+")] {
            XCTAssertThrowsError(try relation.template(createdAt: 0), "\(relation)") {
                XCTAssertEqual(($0 as? InviteKitError)?.code, .messageRejected)
            }
        }
        XCTAssertNoThrow(try MessageRelation.reaction(to: target, emoji: "👍🏽").template(createdAt: 0))
    }

    func testOnlyTheAuthorMayEditOrDelete() {
        XCTAssertTrue(MessageRelation.mayChange(target: ada, by: ada))
        XCTAssertFalse(MessageRelation.mayChange(target: ada, by: bob))
        XCTAssertTrue(MessageRelation.edit(of: target, text: "x").changesTarget)
        XCTAssertTrue(MessageRelation.deletion(of: [target]).changesTarget)
        XCTAssertFalse(MessageRelation.reaction(to: target, emoji: "+").changesTarget)
        XCTAssertFalse(MessageRelation.reply(to: target, text: "x").changesTarget)
    }

    private func row(_ id: String, sender: [UInt8], at t: Int64, _ relation: MessageRelation? = nil, text: String = "hello", seq: Int64) throws -> StoredMessage {
        let template = try relation?.template(createdAt: t)
        return StoredMessage(eventID: "outer-" + id, appEventID: id, groupID: "g", sender: sender, createdAt: t, kind: template?.kind ?? 9,
                             content: template?.content ?? text, tags: template?.tags ?? [], refersTo: relation?.target,
                             outgoing: false, status: .received, sequence: seq)
    }

    func testTimelineFoldsReactionsRepliesAndOnlyTheAuthorsLatestEdit() throws {
        let original = try row(target, sender: ada, at: 100, seq: 1)
        let reply = try row(other, sender: bob, at: 101, .reply(to: target, text: "answer"), seq: 2)
        var deletedReaction = try row(String(repeating: "06", count: 32), sender: bob, at: 107, .reaction(to: target, emoji: "❤️"), seq: 8)
        deletedReaction.deletedAt = 108
        let related = [
            try row(String(repeating: "01", count: 32), sender: bob, at: 102, .reaction(to: target, emoji: "👍"), seq: 3),
            try row(String(repeating: "02", count: 32), sender: ada, at: 103, .reaction(to: target, emoji: "👍"), seq: 4),
            try row(String(repeating: "03", count: 32), sender: ada, at: 105, .edit(of: target, text: "latest"), seq: 5),
            // Stored later, written earlier: the edit's own created_at orders edits.
            try row(String(repeating: "04", count: 32), sender: ada, at: 104, .edit(of: target, text: "first"), seq: 6),
            // Bob may not edit Ada's message: never shown.
            try row(String(repeating: "05", count: 32), sender: bob, at: 106, .edit(of: target, text: "forged"), seq: 7),
            deletedReaction,
            reply,
        ]
        let folded = TimelineMessage.fold([original, reply], related: related)
        XCTAssertEqual(folded.count, 2)
        XCTAssertEqual(folded[0].text, "latest")
        XCTAssertEqual(folded[0].edits.map(\.content), ["first", "latest"])
        XCTAssertTrue(folded[0].isEdited)
        XCTAssertEqual(folded[0].reactions.count, 2, "the deleted reaction does not count")
        XCTAssertEqual(folded[0].reactionCounts.map(\.emoji), ["👍"])
        XCTAssertEqual(folded[0].reactionCounts.map(\.count), [2])
        XCTAssertNil(folded[0].replyTo)
        XCTAssertEqual(folded[1].replyTo, target)
        XCTAssertEqual(folded[1].text, "answer")
        var deleted = original
        deleted.deletedAt = 200
        deleted.content = ""
        let gone = TimelineMessage.fold([deleted], related: related)[0]
        XCTAssertTrue(gone.isDeleted)
        XCTAssertEqual(gone.text, "")
    }

    /// `message-retention-v1.md`: exact checked addition; off, negative or overflowing is no expiry.
    func testRetentionExpiryIsCheckedAddition() {
        XCTAssertEqual(MessageRetentionV1.expiry(createdAt: 1_700_000_000, seconds: 60), 1_700_000_060)
        XCTAssertNil(MessageRetentionV1.expiry(createdAt: 1_700_000_000, seconds: 0))
        XCTAssertNil(MessageRetentionV1.expiry(createdAt: 1_700_000_000, seconds: nil))
        XCTAssertNil(MessageRetentionV1.expiry(createdAt: -1, seconds: 60))
        XCTAssertNil(MessageRetentionV1.expiry(createdAt: Int64.max, seconds: 1))
        XCTAssertNil(MessageRetentionV1.expiry(createdAt: 1, seconds: UInt64.max))
    }
}
