import XCTest
import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitMLS
import InviteKitTestSupport

/// The seen log (issue 31; PROTOCOL §5.9, §5.10): outside the group's state, bounded per epoch and
/// by the group's epoch window, still dropping replays and re-signed copies before any work, and
/// read from a state of the previous format.
final class MarmotSeenLogTests: XCTestCase {
    typealias G = MarmotGroup<MLSGroupState>
    let now: Int64 = 1_800_000_000
    let relays = ["wss://relay.example.com"]

    func pair() throws -> (admin: G, member: G) { try MarmotPair.make(now: now, relays: relays) }

    /// The same content under a fresh key and a later timestamp: what anyone who saw an event can make.
    func resigned(_ e: NostrEvent, by offset: Int64 = 1) throws -> NostrEvent {
        try EventTemplate(kind: e.kind, content: e.content, tags: e.tags, createdAt: e.createdAt + offset).signed(by: Secp256k1.PrivateKey())
    }

    /// The state after 1,000 messages is the size of the state after 10: the seen record no longer
    /// rides in it (before, it grew to 31 KB). The log holds one epoch's bound, 256 events.
    func testTheStateDoesNotGrowWithMessages() throws {
        var (a, b) = try pair()
        var sizes: [Int: Int] = [:]
        for i in 1...1_000 {
            let m = try b.message(EventTemplate(kind: 9, content: "m\(i % 10)"), now: now)
            let r = a.ingest(event: m, now: now)
            guard case .message? = r.outcomes.first else { return XCTFail("message \(i)") }
            XCTAssertTrue(r.seenChanged)
            if [10, 300, 1_000].contains(i) { sizes[i] = a.serialized().count }
        }
        let at10 = try XCTUnwrap(sizes[10]), at1000 = try XCTUnwrap(sizes[1_000])
        XCTAssertLessThanOrEqual(at1000, at10 + 64, "the state grew with messages: \(at10) → \(at1000) bytes")
        XCTAssertEqual(sizes[300], at1000)
        XCTAssertEqual(a.seenLog.count(epoch: a.epoch), MarmotSeenLog.entryLimitPerEpoch)
        XCTAssertEqual(a.seenLog.count, MarmotSeenLog.entryLimitPerEpoch + a.seenLog.count - a.seenLog.count(epoch: a.epoch))
        XCTAssertLessThanOrEqual(a.seenLog.serialized().count,
                                 a.seenLog.recordedEpochs.count * (MarmotSeenLog.byteLimitPerEpoch + MarmotSeenLog.entryLimitPerEpoch * 11) + 16)
    }

    /// The log keeps only the group's window (``MarmotProfile/epochLookback``): after eight
    /// epochs the entries of the first ones are gone, reported as pruned, and a replay of an
    /// event from a dropped epoch no longer opens (the epoch's key went with it) and changes nothing.
    func testEntriesLeaveWithTheEpochWindow() throws {
        var (a, b) = try pair()
        let first = try b.message(EventTemplate(kind: 9, content: "first"), now: now)
        _ = a.ingest(event: first, now: now)
        let firstEpoch = a.epoch
        a.seenLog.markSaved()
        for i in 0..<8 {
            let update = try a.selfUpdate(now: now + Int64(i))
            _ = try a.confirmPublished(update, acknowledgedBy: relays, now: now)
            guard case .commitApplied? = b.receive(event: update.event, now: now).first else { return XCTFail("commit \(i)") }
            _ = a.ingest(event: try b.message(EventTemplate(kind: 9, content: "at \(i)"), now: now), now: now)
        }
        let start = MarmotSeenLog.windowStart(at: a.epoch)
        XCTAssertEqual(start, a.epoch - UInt64(MarmotProfile.epochLookback))
        XCTAssertEqual(a.seenLog.recordedEpochs.first, start)
        XCTAssertTrue(a.seenLog.recordedEpochs.allSatisfy { $0 >= start && $0 <= a.epoch })
        XCTAssertFalse(a.seenLog.contains(eventID: first.id), "an entry of epoch \(firstEpoch) outlived the window")
        XCTAssertEqual(a.seenLog.changes.prunedBelow, start)
        XCTAssertTrue(a.seenLog.changes.added.allSatisfy { $0.epoch >= start })
        let before = a.serialized().exportBytes()
        let replay = a.ingest(event: first, now: now)
        if case .message? = replay.outcomes.first { XCTFail("a replay from a dropped epoch was read again") }
        XCTAssertFalse(replay.stateChanged)
        XCTAssertEqual(a.serialized().exportBytes(), before)
    }

    /// Per epoch, the oldest entries go first past the bound, and the changes say so by sequence.
    func testAnEpochKeepsItsNewestEntries() throws {
        var log = MarmotSeenLog()
        let hashes = (0..<300).map { SHA256.hash(Array("content \($0)".utf8)) }
        for (i, h) in hashes.enumerated() { log.record(eventID: Hex.encode(SHA256.hash([UInt8(i & 0xff), UInt8(i >> 8)])), contentHash: h, epoch: 3, currentEpoch: 3) }
        XCTAssertEqual(log.count(epoch: 3), MarmotSeenLog.entryLimitPerEpoch)
        XCTAssertFalse(log.contains(contentHash: hashes[43]))
        XCTAssertTrue(log.contains(contentHash: hashes[44]))
        XCTAssertTrue(log.contains(contentHash: hashes[299]))
        // 300 events are 600 entries, sequences 0...599: the first 88 went.
        XCTAssertEqual(log.changes.evictedThrough, [3: 87])
        XCTAssertEqual(log.changes.added.map(\.sequence), Array(88..<600))
        XCTAssertEqual(log.changes.added.map(\.sequence), log.entries.map(\.sequence))
        // An event of an epoch the window already left is not recorded.
        log.record(eventID: String(repeating: "ab", count: 32), contentHash: SHA256.hash([1]), epoch: 0, currentEpoch: 9)
        XCTAssertFalse(log.contains(contentHash: SHA256.hash([1])))
        XCTAssertTrue(log.isEmpty, "epoch 3 is outside the window of epoch 9")
        XCTAssertEqual(log.changes.prunedBelow, 9 - UInt64(MarmotProfile.epochLookback))
        XCTAssertEqual(log.changes.evictedThrough, [:])
        XCTAssertEqual(log.changes.added, [])
        log.markSaved()
        XCTAssertTrue(log.changes.isEmpty)
    }

    /// ``MarmotSeenLog/serialized()`` round-trips, and bad bytes are typed errors.
    func testTheLogsBytesRoundTripAndBadOnesAreRefused() throws {
        var (a, b) = try pair()
        for i in 0..<5 { _ = a.ingest(event: try b.message(EventTemplate(kind: 9, content: "\(i)"), now: now), now: now) }
        let bytes = a.seenLog.serialized()
        let back = try MarmotSeenLog(serialized: bytes)
        XCTAssertEqual(back, a.seenLog)
        XCTAssertEqual(back.entries.map(\.value), a.seenLog.entries.map(\.value))
        XCTAssertEqual(back.entries.map(\.epoch), a.seenLog.entries.map(\.epoch))
        XCTAssertTrue(back.changes.isEmpty, "a log read back has nothing to save")

        func entry(kind: UInt8, value: [UInt8]) -> [UInt8] {
            var w = TLSWriter(capacity: 64)
            w.writeUInt8(1)
            w.writeVector { v in v.writeUInt64(1); v.writeUInt8(kind); v.writeOpaque(value) }
            return w.takeBytes()
        }
        XCTAssertNoThrow(try MarmotSeenLog(serialized: entry(kind: 0, value: [UInt8](repeating: 7, count: 32))))
        for (name, bad, code) in [("short value", entry(kind: 0, value: [1, 2, 3]), MLSErrorCodes.Code.invalidValue),
                                  ("unknown kind", entry(kind: 2, value: [UInt8](repeating: 7, count: 32)), .invalidValue),
                                  ("version 2", [2] + Array(bytes.dropFirst()), .unsupportedVersion),
                                  ("trailing byte", bytes + [0], .trailingBytes),
                                  ("truncated", Array(bytes.dropLast()), .truncated)] {
            XCTAssertThrowsError(try MarmotSeenLog(serialized: bad), name) { XCTAssertEqual(($0 as? MLSError)?.code, code, name) }
        }
    }

    /// A re-signed copy of an accepted message is a duplicate before any work, also in a group
    /// read back from its bytes with its log set back: nothing changes, nothing is to save.
    func testAReSignedCopyIsADuplicateAfterAReload() throws {
        var (a, b) = try pair()
        let m = try b.message(EventTemplate(kind: 9, content: "once"), now: now)
        guard case .message? = a.ingest(event: m, now: now).outcomes.first else { return XCTFail("not read") }
        var reloaded = try G(serialized: a.serialized())
        XCTAssertTrue(reloaded.seenLog.isEmpty, "a version-5 state carries no seen entries")
        reloaded.seenLog = try MarmotSeenLog(serialized: a.seenLog.serialized())
        let before = reloaded.serialized().exportBytes()
        for copy in [m, try resigned(m), try resigned(m, by: -1)] {
            let r = reloaded.ingest(event: copy, now: now)
            XCTAssertEqual(r.outcomes.count, 1)
            guard case .duplicate? = r.outcomes.first else { return XCTFail("\(r.outcomes)") }
            XCTAssertFalse(r.stateChanged || r.seenChanged || r.bufferChanged)
        }
        XCTAssertEqual(reloaded.serialized().exportBytes(), before)
    }

    /// A state of version 4, written by the code before the seen log had its own place
    /// (`vectors/marmot/state/marmot-group-v4.json`): it loads, its seen entries move to the log
    /// under its current epoch as changes to save, a replay of the message it had read is a
    /// duplicate, and it is written back as version 5 without them.
    func testAVersion4StateLoadsWithItsSeenEntries() throws {
        let fixture = try XCTUnwrap(try VectorFiles.json("marmot/state/marmot-group-v4.json") as? [String: Any])
        let blob = try XCTUnwrap(Hex.decode(try XCTUnwrap(fixture["marmot_group_v4"] as? String)))
        XCTAssertEqual(blob.first, 4)
        var g = try G(serialized: SecureBytes(copying: blob))
        XCTAssertFalse(g.seenLog.isEmpty)
        XCTAssertEqual(g.seenLog.recordedEpochs, [g.epoch])
        XCTAssertEqual(g.seenLog.changes.added, g.seenLog.entries, "migrated entries are all to save")
        let received = try NostrEvent(json: Array(try XCTUnwrap(fixture["received_event"] as? String).utf8))
        XCTAssertTrue(g.seenLog.contains(eventID: received.id))
        XCTAssertTrue(g.seenLog.contains(contentHash: SHA256.hash(Array(received.content.utf8))))
        let before = g.serialized().exportBytes()
        let r = g.ingest(event: try resigned(received), now: received.createdAt)
        guard case .duplicate? = r.outcomes.first else { return XCTFail("\(r.outcomes)") }
        XCTAssertFalse(r.stateChanged || r.seenChanged)
        let v5 = g.serialized().exportBytes()
        XCTAssertEqual(v5, before)
        XCTAssertEqual(v5.first, G.serializationVersion)
        XCTAssertLessThan(v5.count, blob.count, "the seen entries left the state")
        let again = try G(serialized: SecureBytes(copying: v5))
        XCTAssertTrue(again.seenLog.isEmpty)
        XCTAssertEqual(again.epoch, g.epoch)
    }
}
