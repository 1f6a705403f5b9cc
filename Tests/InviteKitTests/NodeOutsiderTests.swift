import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit

/// Nobody outside a group can grow, slow or break it through a node (PROTOCOL §5.9): junk
/// kind-445 events signed by strangers with the group's `h` tag leave the group's stored state
/// as it was, the buffer bounded, and the next real message readable.
final class NodeOutsiderTests: XCTestCase {
    private let homes = NodeHomes()

    override func tearDown() { homes.remove() }

    /// Well-formed outsiders' events of about `contentBytes` of padded base64 each: they pass the
    /// envelope, so they reach the buffer (or its size bound), whatever else the group holds.
    private func junk(_ count: Int, contentBytes: Int, tag: String) -> [NostrEvent] {
        let stranger = Secp256k1.PrivateKey(using: SeededRandom(seed: 77))
        let rng = SeededRandom(seed: 78)
        return (0..<count).map { _ in TestEvents.note(stranger, Base64.encode(rng.bytes(contentBytes * 3 / 4)), kind: 445, tags: [["h", tag]]) }
    }

    func testJunkEventsLeaveTheStateAsItWasAndTheBufferBounded() async throws {
        let ada = try homes.node("ada", seed: 1)
        var dee: InviteKitNode! = try homes.node("dee", seed: 2)
        let runners = [ada, dee!].map { n in Task { try await n.run() } }
        defer { runners.forEach { $0.cancel() } }
        let group = try await ada.createGroup(name: "club")
        let invite = try await ada.createInvite(groupID: group.id, singleUse: false, expiresIn: 3600)
        _ = try await dee.join(invite.url, timeout: .seconds(30))
        runners.forEach { $0.cancel() }
        for r in runners { _ = await r.result }

        let stateBefore = try dee.store.read { tx in try tx.groups.get(id: group.id)?.state.count }
        let epochBefore = try await dee.group(group.id).epoch
        // 520 events of 64 KB (over the 1 MiB buffer many times) and a few over the size bound.
        for e in junk(520, contentBytes: 65_000, tag: group.nostrGroupID) + junk(5, contentBytes: 300_000, tag: group.nostrGroupID) {
            try await dee.handleGroupEvent(e)
        }
        // Junk costs no write of its own: the buffer is saved by the run loop's next round.
        try await dee.saveDirtyBuffers()
        let (stateAfter, buffered) = try dee.store.read { tx in
            (try tx.groups.get(id: group.id)?.state.count, try tx.bufferedEvents.all(groupID: group.id))
        }
        XCTAssertEqual(stateAfter, stateBefore, "junk never changes the stored group state")
        XCTAssertLessThanOrEqual(buffered.count, MarmotProfile.bufferedEventLimit)
        XCTAssertLessThanOrEqual(buffered.reduce(0) { $0 + $1.utf8.count }, MarmotProfile.bufferedByteLimit)
        XCTAssertGreaterThan(buffered.count, 0, "undecryptable events wait within the bounds")
        let epochAfter = try await dee.group(group.id).epoch
        XCTAssertEqual(epochAfter, epochBefore)

        // A real message after the flood is read, and the restarted node keeps the same bounds.
        let sent = try await ada.sendMessage(text: "still here", groupID: group.id)
        let event = try XCTUnwrap(try ada.store.read { tx in try tx.outbound.entry(eventID: sent.eventID) }).eventJSON
        let received = try await dee.handleGroupEvent(try NostrEvent(json: event))
        XCTAssertEqual(received?.content, "still here")

        // Well-formed junk waits in the buffer. A restart does not parse the buffered events; the
        // group's next event reads them back from their table, in order, within the same bounds.
        let rng = SeededRandom(seed: 446)
        func wellFormed() -> NostrEvent { TestEvents.junkGroupEvent(nostrGroupID: group.nostrGroupID, bytes: 300, rng: rng, createdAt: homes.now) }
        for _ in 0..<10 { try await dee.handleGroupEvent(wellFormed()) }
        try await dee.saveDirtyBuffers()
        let waiting = try dee.store.read { tx in try tx.bufferedEvents.all(groupID: group.id) }.map { try NostrEvent(json: $0).id }
        XCTAssertGreaterThanOrEqual(waiting.count, 10)
        await dee.shutdown()
        dee = nil
        let restarted = try homes.node("dee", seed: 2, initialize: false)
        let unread = await restarted.registry[group.id]
        XCTAssertEqual(unread?.bufferLoaded, false)
        XCTAssertEqual(unread?.group.buffer.count, 0)
        let next = wellFormed()
        try await restarted.handleGroupEvent(next)
        let kept = await restarted.registry[group.id]?.group.buffer
        XCTAssertEqual(kept?.events.map(\.id), waiting + [next.id])
        XCTAssertLessThanOrEqual(kept?.byteCount ?? .max, MarmotProfile.bufferedByteLimit)
    }

    /// The database's bytes (main file and WAL): any committed transaction changes them.
    private func files(_ node: InviteKitNode) -> [Data?] {
        [node.home.databasePath, node.home.databasePath + "-wal"].map { FileManager.default.contents(atPath: $0) }
    }

    /// Junk that passes every check up to the AEAD open (one h tag, base64, a valid signature)
    /// joins the buffer of a joined and of a hosted group without any write: the state, the
    /// database files and the messages stay as they were until the run loop's round saves the
    /// buffer in one transaction and reports the evictions once.
    func testWellFormedJunkWritesNothingUntilOneRoundSavesTheBuffer() async throws {
        let ada = try homes.node("ada", seed: 1)
        let dee = try homes.node("dee", seed: 2)
        let runners = [ada, dee].map { n in Task { try await n.run() } }
        let group = try await ada.createGroup(name: "club")
        let invite = try await ada.createInvite(groupID: group.id, singleUse: false, expiresIn: 3600)
        _ = try await dee.join(invite.url, timeout: .seconds(30))
        runners.forEach { $0.cancel() }
        for r in runners { _ = await r.result }

        let rng = SeededRandom(seed: 445)
        let extra = 44
        let junk = (0..<(MarmotProfile.bufferedEventLimit + extra)).map { _ in
            // Dated by the nodes' fixed clock: XCTest may make this case long before it runs.
            TestEvents.junkGroupEvent(nostrGroupID: group.nostrGroupID, bytes: 300, rng: rng, createdAt: homes.now)
        }
        for node in [dee, ada] {
            let reports = node.events()
            let stateBefore = await node.registry[group.id]!.group.serialized()
            let heldBefore = await node.registry[group.id]!.group.buffer.count
            let filesBefore = files(node)
            for e in junk {
                let stored = try await node.handleGroupEvent(e)
                XCTAssertNil(stored)
            }
            XCTAssertEqual(files(node), filesBefore, "junk wrote to the database")
            let stateAfter = await node.registry[group.id]!.group.serialized()
            XCTAssertTrue(stateAfter.constantTimeEquals(stateBefore), "junk changed the group's state")
            let held = await node.registry[group.id]!.group.buffer.events.map(\.id)
            XCTAssertEqual(held, junk.suffix(MarmotProfile.bufferedEventLimit).map(\.id), "the newest junk waits, the oldest was evicted")

            // One round: one write of the buffer by difference, one report of the evictions.
            try await node.saveDirtyBuffers()
            XCTAssertNotEqual(files(node), filesBefore)
            let stored = try node.store.read { tx in try tx.bufferedEvents.all(groupID: group.id) }.map { try NostrEvent(json: $0).id }
            XCTAssertEqual(stored, held)
            try await node.saveDirtyBuffers()
            let history = try await node.history(of: group.id)
            XCTAssertTrue(history.isEmpty)
            await node.shutdown()
            var evictions: [Int] = []
            for await e in reports { if case .bufferedEventsEvicted(let id, let n) = e, id == group.id { evictions.append(n) } }
            XCTAssertEqual(evictions, [heldBefore + extra])
        }
    }

    /// A node finds an event's group by the one `h` rule of PROTOCOL §5.4 (exactly one `h` tag of
    /// 64 hex, `MarmotGroupEvent.nostrGroupID`): an event with two is nobody's and is not buffered,
    /// while the same junk with one tag is. (Before the node shared the rule it looked up by the
    /// first `h` tag and the engine refused the event after; the outcome was the same, the rule
    /// had two owners.)
    func testAnEventWithTwoHTagsReachesNoGroup() async throws {
        let ada = try homes.node("ada", seed: 1)
        let group = try await ada.createGroup(name: "club")
        let stranger = Secp256k1.PrivateKey(using: SeededRandom(seed: 78))
        func buffered() async throws -> Int {
            try await ada.saveDirtyBuffers()
            return try ada.store.read { tx in try tx.bufferedEvents.all(groupID: group.id).count }
        }
        let h = ["h", group.nostrGroupID]
        let sealed = Base64.encode([UInt8](repeating: 7, count: 60))  // opens under no key
        let twoTags = try await ada.handleGroupEvent(TestEvents.note(stranger, sealed, kind: 445, tags: [h, h]))
        XCTAssertNil(twoTags)
        let none = try await buffered()
        XCTAssertEqual(none, 0, "two h tags: no group")
        _ = try await ada.handleGroupEvent(TestEvents.note(stranger, sealed, kind: 445, tags: [h]))
        let one = try await buffered()
        XCTAssertEqual(one, 1, "the same junk with one h tag waits in its group's buffer")
    }
}
