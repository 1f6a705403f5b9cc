import XCTest
import InviteKitCrypto
import InviteKitNostr
import InviteKitTestSupport
@testable import InviteKitMLS

/// Outsiders who know a group's `h` tag (PROTOCOL.md §5.9): what they send is refused or waits in a
/// bounded buffer outside the group's state, and never changes that state.
final class MarmotEventBufferTests: XCTestCase {
    typealias G = MarmotGroup<MLSGroupState>
    let now: Int64 = 1_800_000_000
    let relays = ["wss://relay.example.com"]

    /// Alice (admin) and Bob, both at epoch 1.
    func pair() throws -> (alice: G, bob: G) {
        let aliceKey = Secp256k1.PrivateKey(), bobKey = Secp256k1.PrivateKey()
        let (_, aliceBundle) = try KeyPackageEvent.create(nostrKey: aliceKey, relays: relays, lastResort: false, profile: .mip, now: now)
        var alice = try G.create(creator: aliceBundle, name: "g", relays: relays, rng: SeededRandom(seed: 7))
        let store = MemoryKeyPackageStore()
        let (bobEvent, bobBundle) = try KeyPackageEvent.create(nostrKey: bobKey, relays: relays, lastResort: false, profile: .mip, now: now)
        try store.save(bobBundle)
        let pending = try alice.commit(adding: [try KeyPackageValidator.validate(bobEvent, now: now)], now: now)
        let wraps = try alice.confirmPublished(pending, acknowledgedBy: relays, wrappingWelcomesFrom: aliceKey, now: now)
        return (alice, try G.join(giftWrap: wraps[0], recipient: bobKey, store: store))
    }

    /// A kind-445 event for `group` from an outsider: a fresh key, random sealed content of
    /// `contentBytes` base64 characters (rounded down to a multiple of 4).
    func junk(_ group: G, contentBytes: Int = 200, at t: Int64? = nil) -> NostrEvent {
        let raw = SystemRandom().bytes(max(28, contentBytes / 4 * 3))
        return TestEvents.note(Secp256k1.PrivateKey(), Base64.encode(raw), kind: 445,
                               tags: [["h", Hex.encode(group.nostrGroupID)], ["encoding", "base64"]], createdAt: t ?? now)
    }

    func testJunkChangesNoStateAndTheBufferStaysWithinItsCount() throws {
        var (alice, bob) = try pair()
        let before = bob.serialized().exportBytes()
        var evicted: [String] = []
        var ids: [String] = []
        for _ in 0..<(MarmotProfile.bufferedEventLimit + 44) {
            let e = junk(bob)
            ids.append(e.id)
            let r = bob.ingest(event: e, now: now)
            guard case .buffered? = r.outcomes.first else { return XCTFail("junk is buffered: \(r.outcomes)") }
            XCTAssertFalse(r.stateChanged, "junk changed the state")
            XCTAssertTrue(r.bufferChanged)
            for case let .evicted(id) in r.outcomes { evicted.append(id) }
        }
        XCTAssertEqual(bob.buffer.count, MarmotProfile.bufferedEventLimit)
        XCTAssertEqual(evicted, Array(ids.prefix(44)), "the oldest are evicted, each reported once")
        XCTAssertEqual(bob.buffer.events.map(\.id), Array(ids.suffix(MarmotProfile.bufferedEventLimit)))
        XCTAssertEqual(bob.serialized().exportBytes(), before, "the state holds nothing of the junk")

        // The same junk again is a duplicate and changes nothing.
        let again = bob.ingest(event: bob.buffer.events[0], now: now)
        guard case .duplicate? = again.outcomes.first else { return XCTFail("\(again.outcomes)") }
        XCTAssertFalse(again.stateChanged || again.bufferChanged)

        // A real message still reads, and changes the state.
        let m = try alice.message(EventTemplate(kind: MarmotProfile.chatMessageKind, content: "still here"), now: now)
        let r = bob.ingest(event: m, now: now)
        guard case let .message(rumor, _)? = r.outcomes.first else { return XCTFail("\(r.outcomes)") }
        XCTAssertEqual(rumor.content, "still here")
        XCTAssertTrue(r.stateChanged)
        XCTAssertFalse(r.bufferChanged)
    }

    func testTheBufferStaysWithinItsBytes() throws {
        let (_, bob) = try pair()
        var buffer = MarmotEventBuffer()
        var evicted = 0
        for _ in 0..<520 { evicted += buffer.append(junk(bob, contentBytes: 64 * 1024)).count }
        XCTAssertLessThanOrEqual(buffer.byteCount, MarmotProfile.bufferedByteLimit)
        XCTAssertEqual(buffer.byteCount, buffer.events.reduce(0) { $0 + MarmotEventBuffer.cost(of: $1) })
        XCTAssertEqual(buffer.count + evicted, 520)
        XCTAssertEqual(buffer.count, MarmotProfile.bufferedByteLimit / MarmotEventBuffer.cost(of: buffer.events[0]))
        // An event larger than the whole bound is never kept.
        var tiny = MarmotEventBuffer(limits: .init(maxEvents: 10, maxBytes: 1000))
        let big = junk(bob, contentBytes: 2000)
        XCTAssertEqual(tiny.append(big).map(\.id), [big.id])
        XCTAssertTrue(tiny.isEmpty)
    }

    func testOversizeEventsAreRefusedBeforeAnyWork() throws {
        var (_, bob) = try pair()
        let before = bob.serialized().exportBytes()
        var e = junk(bob, contentBytes: MarmotProfile.maxGroupEventContentBytes + 4)
        e.sig = String(repeating: "0", count: 128)  // not even checked
        let r = bob.ingest(event: e, now: now)
        guard case let .rejected(err)? = r.outcomes.first else { return XCTFail("\(r.outcomes)") }
        XCTAssertEqual(err.code, .tooLarge)
        XCTAssertFalse(r.stateChanged || r.bufferChanged)
        XCTAssertTrue(bob.buffer.isEmpty)
        XCTAssertEqual(bob.serialized().exportBytes(), before)
        // Right at the bound it is only junk: buffered.
        guard case .buffered? = bob.ingest(event: junk(bob, contentBytes: MarmotProfile.maxGroupEventContentBytes), now: now).outcomes.first else {
            return XCTFail("an event at the bound is not refused for its size")
        }
    }

    func testBufferedEventsAreRetriedAfterAnEpochChange() throws {
        var (alice, bob) = try pair()
        // Bob misses Alice's self-update; a message of the new epoch waits, then reads.
        let update = try alice.selfUpdate(now: now)
        _ = try alice.confirmPublished(update, acknowledgedBy: relays, now: now)
        let m = try alice.message(EventTemplate(kind: MarmotProfile.chatMessageKind, content: "epoch 2"), now: now)
        let early = bob.ingest(event: m, now: now)
        guard case .buffered? = early.outcomes.first else { return XCTFail("\(early.outcomes)") }
        XCTAssertFalse(early.stateChanged)
        let stored = bob.buffer.serialized()
        // The buffer is saved apart from the state and read back.
        var restored = try G(serialized: bob.serialized())
        XCTAssertTrue(restored.buffer.isEmpty, "the state carries no buffered event")
        restored.buffer = try MarmotEventBuffer(serialized: stored)
        let r = restored.ingest(event: update.event, now: now)
        XCTAssertTrue(r.stateChanged && r.bufferChanged)
        XCTAssertEqual(r.outcomes.count, 2)
        guard case let .message(rumor, epoch)? = r.outcomes.last else { return XCTFail("\(r.outcomes)") }
        XCTAssertEqual(rumor.content, "epoch 2")
        XCTAssertEqual(epoch, 2)
        XCTAssertTrue(restored.buffer.isEmpty)
    }

    func testBufferSerializationIsStrict() throws {
        let (_, bob) = try pair()
        var buffer = MarmotEventBuffer()
        for _ in 0..<3 { buffer.append(junk(bob)) }
        let bytes = buffer.serialized()
        XCTAssertEqual(try MarmotEventBuffer(serialized: bytes), buffer)
        XCTAssertThrowsError(try MarmotEventBuffer(serialized: [2] + bytes.dropFirst())) {
            XCTAssertEqual(($0 as? MLSError)?.code, .unsupportedVersion)
        }
        XCTAssertThrowsError(try MarmotEventBuffer(serialized: bytes + [0]))
        XCTAssertThrowsError(try MarmotEventBuffer(serialized: Array(bytes.dropLast())))
        // Read under smaller limits, the newest are kept.
        let small = try MarmotEventBuffer(serialized: bytes, limits: .init(maxEvents: 2, maxBytes: 1 << 20))
        XCTAssertEqual(small.events, Array(buffer.events.suffix(2)))
    }

    /// A version-1 state (buffered events inside) is migrated; any other version is refused with
    /// a typed error, never read as something else.
    func testVersionOneStateIsMigratedAndUnknownVersionsRefused() throws {
        var (alice, bob) = try pair()
        let waiting = [junk(bob), junk(bob)]
        let v5 = bob.serialized().exportBytes()  // the current version, 5
        // v1 = v5's fields with the seen ids and hashes and `opaque buffered_events<V>` before
        // leave requests, and without the current witnesses; bob has no snapshot, whose fields
        // are what else differs between 1-4.
        XCTAssertTrue(bob.snapshots.isEmpty)
        var r = TLSReader(v5)
        XCTAssertEqual(try r.readUInt8(), 5)
        let engine = try r.readOpaque(), snapshots = try r.readOpaque()
        let leave = try r.readOpaque()
        XCTAssertEqual(try r.readOpaque(), [], "no witness yet")
        try r.finish()
        let seenID = String(repeating: "ab", count: 32), seenHash = SHA256.hash([1, 2, 3])
        var w = TLSWriter()
        w.writeUInt8(1)
        for part in [engine, snapshots] { w.writeOpaque(part) }
        w.writeVector { v in v.writeOpaque(Array(seenID.utf8)) }
        w.writeVector { v in v.writeOpaque(seenHash) }
        w.writeVector { v in for e in waiting { v.writeOpaque(e.jsonBytes) } }
        w.writeOpaque(leave)
        var migrated = try G(serialized: SecureBytes(copying: w.bytes))
        XCTAssertEqual(migrated.buffer.events, waiting)
        XCTAssertTrue(migrated.seenLog.contains(eventID: seenID) && migrated.seenLog.contains(contentHash: seenHash), "seen entries move to the log")
        XCTAssertEqual(migrated.serialized().exportBytes(), v5, "rewritten as version 5")
        let m = try alice.message(EventTemplate(kind: MarmotProfile.chatMessageKind, content: "after migration"), now: now)
        guard case .message? = migrated.receive(event: m, now: now).first else { return XCTFail("migrated state reads") }

        for version: UInt8 in [0, 6, 255] {
            XCTAssertThrowsError(try G(serialized: SecureBytes(copying: [version] + v5.dropFirst()))) {
                XCTAssertEqual(($0 as? MLSError)?.code, .unsupportedVersion)
            }
        }
        // An older reader's layout applied to version-5 bytes does not fit (it looks for the seen
        // ids and hashes, and runs out): refused.
        for version: UInt8 in [3, 4] {
            XCTAssertThrowsError(try G(serialized: SecureBytes(copying: [version] + v5.dropFirst())))
        }
    }
}
