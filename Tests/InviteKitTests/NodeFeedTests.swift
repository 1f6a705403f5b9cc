import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit

/// ``InviteKitNode/feed(since:)``: what was stored after a cursor, then what is stored next,
/// each message once, and a catch-up handled oldest first.
final class NodeFeedTests: XCTestCase {
    private let homes = NodeHomes()

    override func tearDown() { homes.remove() }

    /// Reads `count` messages from `feed` (the test's bound: 30 s).
    private func take(_ count: Int, from feed: AsyncStream<StoredMessage>) async throws -> [StoredMessage] {
        let task = Task {
            var out: [StoredMessage] = []
            for await m in feed {
                out.append(m)
                if out.count == count { break }
            }
            return out
        }
        let timer = Task { try await Task.sleep(for: .seconds(30)); task.cancel() }
        defer { timer.cancel() }
        return await task.value
    }

    func testTheFeedResumesAfterItsCursorAndThenFollowsWhatIsStored() async throws {
        let ada = try homes.node("ada", seed: 1)
        let bob = try homes.node("bob", seed: 2)
        let runners = [ada, bob].map { n in Task { try await n.run() } }
        defer { runners.forEach { $0.cancel() } }
        let group = try await ada.createGroup(name: "club")
        let invite = try await ada.createInvite(groupID: group.id, singleUse: false, expiresIn: 3600)
        _ = try await bob.join(invite.url, timeout: .seconds(30))

        let sent = ["one", "two", "three"]
        for text in sent { try await ada.waitForDelivery(of: try await ada.send(text, to: group.id), timeout: .seconds(30)) }
        let all = try await take(3, from: bob.feed())
        XCTAssertEqual(all.map(\.content), sent)
        XCTAssertEqual(all.map(\.sequence), all.map(\.sequence).sorted())

        // The app kept the cursor of "one": it resumes with "two", then gets what comes next,
        // received ("four") and its own ("five"), each once.
        let resumed = bob.feed(since: all[0].sequence)
        try await ada.waitForDelivery(of: try await ada.send("four", to: group.id), timeout: .seconds(30))
        _ = try await bob.send("five", to: group.id)
        let next = try await take(4, from: resumed)
        XCTAssertEqual(next.map(\.content), ["two", "three", "four", "five"])
        XCTAssertEqual(next.map(\.outgoing), [false, false, false, true])
        XCTAssertEqual(next.map(\.senderKey), [ada.publicKey, ada.publicKey, ada.publicKey, bob.publicKey])
        XCTAssertEqual(Set(next.map(\.sequence)).count, 4)

        // A shutdown ends the feed after what was stored.
        let last = bob.feed(since: next[3].sequence)
        await bob.shutdown()
        var after: [StoredMessage] = []
        for await m in last { after.append(m) }
        XCTAssertTrue(after.isEmpty)
        let ended = bob.feed()
        var count = 0
        for await _ in ended { count += 1 }
        XCTAssertEqual(count, 5, "a feed made after shutdown still reads the history, then ends")
    }

    /// A catch-up goes to the groups oldest first: a newest-first answer is reversed (ties keep
    /// the relay's storage order), any other order is sorted by `created_at`, stably.
    func testACatchUpIsHandledOldestFirst() {
        func event(_ t: Int64, _ tag: String) -> NostrEvent {
            TestEvents.junkGroupEvent(nostrGroupID: tag, bytes: 8, rng: SeededRandom(seed: UInt64(t)), createdAt: t)
        }
        let a = event(10, "a"), b = event(20, "b"), c = event(20, "c"), d = event(30, "d")
        XCTAssertEqual(InviteKitNode.oldestFirst([d, c, b, a]).map(\.id), [a, b, c, d].map(\.id))
        XCTAssertEqual(InviteKitNode.oldestFirst([b, a, d, c]).map(\.id), [a, b, c, d].map(\.id))
        XCTAssertEqual(InviteKitNode.oldestFirst([]).map(\.id), [])
    }
}
