import XCTest
import InviteKitCrypto
import InviteKitNostr
import InviteKitTestSupport
@testable import InviteKitMLS

/// A group's tree stored apart in chunks (docs/storage.md §6): a message leaves every chunk as
/// saved, a commit changes only the chunks on its paths, and the state without its tree reads
/// back only with a tree of its width and GroupContext tree hash.
final class TreeStoredChunksTests: XCTestCase {
    /// `tree` rebuilt from `stored` (as last saved) with `changed` written over it.
    private func apply(_ changed: [(index: Int, bytes: [UInt8])], to stored: [[UInt8]], count: Int) -> [[UInt8]] {
        var out = Array(stored.prefix(count))
        for (k, bytes) in changed where k < count {
            if k < out.count { out[k] = bytes } else { out.append(bytes) }
        }
        return out
    }

    func testAMessageChangesNoChunkAndACommitOnlyThoseOnItsPath() throws {
        var (admin, member) = try EngineHarness.group(size: 300, selfUpdates: 1)
        let rng = SeededRandom(seed: 11)
        let count = RatchetTree.storedChunkCount(nodeCount: member.tree.nodeCount)
        var stored = member.tree.storedChunks(changedSince: nil).map(\.bytes)
        XCTAssertEqual(stored.count, count)
        XCTAssertGreaterThan(count, 8, "a tree of several chunks")

        var saved = member.tree
        _ = try member.process(try admin.sealApplication(Array("hi".utf8), rng: rng))
        XCTAssertTrue(member.tree.storedChunks(changedSince: saved).isEmpty, "a message changes no chunk")

        for _ in 0..<4 {
            let p = try admin.commit([], rng: rng)
            try admin.merge(p)
            _ = try member.process(p.message)
            let changed = member.tree.storedChunks(changedSince: saved)
            XCTAssertFalse(changed.isEmpty)
            // The admin's path and the root: at most one chunk per level above the chunk size.
            XCTAssertLessThanOrEqual(changed.count, 1 + member.tree.leafCount.bitWidth - member.tree.leafCount.leadingZeroBitCount)
            XCTAssertLessThan(changed.count, count)
            stored = apply(changed, to: stored, count: count)
            saved = member.tree
            let back = try RatchetTree(storedChunks: stored)
            XCTAssertEqual(back, member.tree, "the chunks as saved by difference are the tree")
            XCTAssertEqual(back.treeHash, member.groupContext.treeHash)
        }
    }

    func testTheStateWithoutItsTreeReadsOnlyWithItsTree() throws {
        var (admin, member) = try EngineHarness.group(size: 20, selfUpdates: 2)
        let rng = SeededRandom(seed: 12)
        let apart = member.serializedWithoutTree()
        XCTAssertLessThan(apart.count, member.serialized().count - member.tree.tlsSerialized.count / 2, "the tree is not in it")
        let tree = try RatchetTree(storedChunks: member.tree.storedChunks(changedSince: nil).map(\.bytes))
        let back = try MLSGroupState(serialized: apart, relativeTo: nil, apartTree: tree)
        XCTAssertEqual(back.serialized().exportBytes(), member.serialized().exportBytes())
        XCTAssertThrowsError(try MLSGroupState(serialized: apart)) { XCTAssertTrue($0 is MLSError) }

        // Another epoch's tree of the same width: the GroupContext's tree hash refuses it.
        let before = member.tree
        let p = try admin.commit([], rng: rng)
        try admin.merge(p)
        _ = try member.process(p.message)
        XCTAssertEqual(before.nodeCount, member.tree.nodeCount)
        // (Its keys no longer match this member's path keys, checked first, or its hash the GroupContext's.)
        XCTAssertThrowsError(try MLSGroupState(serialized: member.serializedWithoutTree(), relativeTo: nil, apartTree: before)) {
            XCTAssertTrue([.treeHashMismatch, .invalidKey].contains(($0 as? MLSError)?.code))
        }
        // A tree of another width.
        let (_, small) = try EngineHarness.group(size: 3, selfUpdates: 0)
        XCTAssertThrowsError(try MLSGroupState(serialized: member.serializedWithoutTree(), relativeTo: nil, apartTree: small.tree)) {
            XCTAssertEqual(($0 as? MLSError)?.code, .invalidTree)
        }
    }

    func testMarmotGroupWithoutItsTreeKeepsSnapshotsAndRoundTrips() throws {
        typealias G = MarmotGroup<MLSGroupState>
        let now: Int64 = 1_800_000_000, relays = ["wss://relay.example.com"]
        let (_, bundle) = try KeyPackageEvent.create(nostrKey: Secp256k1.PrivateKey(), relays: relays, lastResort: false, now: now)
        var alice = try G.create(creator: bundle, name: "g", relays: relays, rng: SeededRandom(seed: 13))
        let kps = try (0..<20).map { _ in
            try KeyPackageValidator.validate(try KeyPackageEvent.create(nostrKey: Secp256k1.PrivateKey(), relays: relays, lastResort: false, now: now).0, now: now)
        }
        _ = try alice.confirmPublished(try alice.commit(adding: kps, now: now), acknowledgedBy: relays, now: now)
        for i in 0..<3 { _ = try alice.confirmPublished(try alice.selfUpdate(now: now + Int64(i) + 1), acknowledgedBy: relays, now: now) }
        XCTAssertFalse(alice.snapshots.isEmpty)
        let tree = try RatchetTree(storedChunks: alice.state.tree.storedChunks(changedSince: nil).map(\.bytes))
        let back = try G(serialized: alice.serializedWithoutTree(), apartTree: tree)
        XCTAssertEqual(back.serialized().exportBytes(), alice.serialized().exportBytes())
        XCTAssertEqual(back.snapshots.count, alice.snapshots.count)
        XCTAssertThrowsError(try G(serialized: alice.serializedWithoutTree())) { XCTAssertTrue($0 is MLSError) }
    }

    func testDamagedChunksAreRefusedWithATypedError() throws {
        let (_, member) = try EngineHarness.group(size: 100, selfUpdates: 0)
        let chunks = member.tree.storedChunks(changedSince: nil).map(\.bytes)
        XCTAssertGreaterThan(chunks.count, 2)
        let cases: [(String, [[UInt8]])] = [
            ("none", []),
            ("a middle chunk missing", Array(chunks[0..<1] + chunks[2...])),
            ("the last chunk missing", Array(chunks.dropLast())),
            ("one chunk too many", chunks + [chunks[0]]),
            ("trailing bytes", Array(chunks.dropLast()) + [chunks.last! + [0]]),
            ("truncated", [Array(chunks[0].dropLast())] + Array(chunks.dropFirst())),
            ("a bad presence byte", [[0, 1, 7]] + Array(chunks.dropFirst())),
        ]
        for (name, damaged) in cases {
            XCTAssertThrowsError(try RatchetTree(storedChunks: damaged), name) { XCTAssertTrue($0 is MLSError, name) }
        }
        XCTAssertEqual(try RatchetTree(storedChunks: chunks), member.tree)
    }
}
