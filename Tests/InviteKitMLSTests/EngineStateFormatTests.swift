import XCTest
import InviteKitCrypto
import InviteKitNostr
import InviteKitTestSupport
@testable import InviteKitMLS

/// The stored engine state (PROTOCOL.md §5.10): past trees are stored as deltas from the current
/// one, so a state with retained epochs and rollback snapshots holds about one tree; version 1
/// (every tree in full) still reads; anything else is refused, never misread.
final class EngineStateFormatTests: XCTestCase {
    func group(size: Int, commits: Int) throws -> (admin: MLSGroupState, member: MLSGroupState) {
        try EngineHarness.group(size: size, selfUpdates: commits)
    }

    /// The version-1 writer, kept here to prove that such bytes still read.
    func versionOne(_ s: MLSGroupState) -> [UInt8] {
        var w = TLSWriter()
        w.writeUInt8(1)
        s.groupContext.encode(to: &w)
        s.tree.encode(to: &w)
        s.signatureKey.rawRepresentation.withUnsafeBytes { w.writeOpaque($0) }
        s.privateTree.serialized().withUnsafeBytes { w.writeOpaque($0) }
        for x in s.epochSecrets.allSecrets { x.withUnsafeBytes { w.writeOpaque($0) } }
        w.writeOpaque(s.interimTranscriptHash)
        s.secretTree.encode(to: &w)
        w.writeUInt8(s.isRemoved ? 1 : 0)
        w.writeVector { v in
            for r in s.retainedEpochs {
                r.groupContext.encode(to: &v)
                r.tree.encode(to: &v)
                r.secretTree.encode(to: &v)
                r.senderDataSecret.withUnsafeBytes { v.writeOpaque($0) }
            }
        }
        w.writeVector { v in
            for c in s.proposalCache {
                v.writeOpaque(c.reference)
                c.proposal.encode(to: &v)
                v.writeUInt32(c.sender)
            }
        }
        return w.bytes
    }

    func testRetainedTreesAreStoredAsDeltas() throws {
        let (_, member) = try group(size: 40, commits: 6)
        XCTAssertEqual(member.retainedEpochs.count, MLSGroupState.retainedEpochLimit)
        let tree = member.tree.tlsSerialized.count
        let v1 = versionOne(member).count
        let v2 = member.serialized().count
        XCTAssertGreaterThan(v1, tree * (MLSGroupState.retainedEpochLimit + 1), "version 1 held every tree")
        XCTAssertLessThan(v2, tree * 2, "version 2 holds one tree and deltas")
        let back = try MLSGroupState(serialized: member.serialized())
        XCTAssertEqual(back.serialized().exportBytes(), member.serialized().exportBytes())
        for (a, b) in zip(back.retainedEpochs, member.retainedEpochs) {
            XCTAssertEqual(a.tree, b.tree)
            XCTAssertEqual(a.tree.treeHashes(), b.tree.computeTreeHashes(), "rehashed paths equal a full rehash")
        }
    }

    /// A save reuses the tree encoding of the previous one only while the tree is the same: after
    /// a message (same tree) and after a commit (new tree) the bytes equal those of a state that
    /// never saved before (read back from bytes, so its cache is empty).
    func testSavesThatReuseTheTreeEncodingEqualAFreshSave() throws {
        var (admin, member) = try group(size: 12, commits: 1)
        let rng = SeededRandom(seed: 9)
        func fresh(_ s: MLSGroupState) throws -> [UInt8] { try MLSGroupState(serialized: s.serialized()).serialized().withUnsafeBytes { Array($0) } }
        let first = member.serialized().withUnsafeBytes { Array($0) }
        XCTAssertEqual(first, try fresh(member))
        // A message advances the secret tree only: the cached tree encoding is reused.
        let message = try admin.sealApplication(Array("hello".utf8), rng: rng)
        let before = member
        _ = try member.process(message)
        XCTAssertEqual(member.serialized().withUnsafeBytes { Array($0) }, try fresh(member))
        XCTAssertNotEqual(member.serialized().withUnsafeBytes { Array($0) }, first)
        // A commit changes the tree: the copy made before it (sharing the cache) still saves its own tree.
        let p = try admin.commit([], rng: rng)
        try admin.merge(p)
        _ = try member.process(p.message)
        XCTAssertEqual(member.serialized().withUnsafeBytes { Array($0) }, try fresh(member))
        XCTAssertEqual(before.serialized().withUnsafeBytes { Array($0) }, first)
        XCTAssertEqual(member.serialized().withUnsafeBytes { Array($0) }, try fresh(member))
    }

    func testVersionOneReadsAndOtherVersionsAreRefused() throws {
        var (admin, member) = try group(size: 9, commits: 3)
        let old = try MLSGroupState(serialized: SecureBytes(copying: versionOne(member)))
        XCTAssertEqual(old.serialized().exportBytes(), member.serialized().exportBytes(), "migrated to version 2 exactly")
        // The migrated state still follows the group.
        var migrated = old
        let p = try admin.commit([], rng: SeededRandom(seed: 6))
        try admin.merge(p)
        _ = try migrated.process(p.message)
        _ = try member.process(p.message)
        XCTAssertEqual(migrated.epoch, admin.epoch)
        XCTAssertEqual(migrated.serialized().exportBytes(), member.serialized().exportBytes())

        var bytes = member.serialized().exportBytes()
        for v: UInt8 in [0, 3, 200] {
            bytes[0] = v
            XCTAssertThrowsError(try MLSGroupState(serialized: SecureBytes(copying: bytes))) {
                XCTAssertEqual(($0 as? MLSError)?.code, .unsupportedVersion)
            }
        }
        // Version-2 bytes under a version-1 header do not fit that layout.
        bytes[0] = 1
        XCTAssertThrowsError(try MLSGroupState(serialized: SecureBytes(copying: bytes)))
    }

    func testDeltaStatesNeedTheirBaseAndRejectTampering() throws {
        let (admin, member) = try group(size: 12, commits: 2)
        let delta = member.serialized(relativeTo: admin).exportBytes()
        XCTAssertLessThan(delta.count, member.serialized().count)
        let back = try MLSGroupState(serialized: SecureBytes(copying: delta), relativeTo: admin)
        XCTAssertEqual(back.serialized().exportBytes(), member.serialized().exportBytes())
        XCTAssertThrowsError(try MLSGroupState(serialized: SecureBytes(copying: delta))) { XCTAssertEqual(($0 as? MLSError)?.code, .invalidValue) }
        // Against another base the tree does not match the GroupContext.
        let (other, _) = try group(size: 13, commits: 1)
        XCTAssertThrowsError(try MLSGroupState(serialized: SecureBytes(copying: delta), relativeTo: other))
        // Every truncation is refused.
        for n in stride(from: 0, to: delta.count, by: max(1, delta.count / 40)) {
            XCTAssertThrowsError(try MLSGroupState(serialized: SecureBytes(copying: Array(delta[0..<n])), relativeTo: admin), "prefix \(n)")
        }
    }

    /// Snapshots of a Marmot group are stored against its current state, and read back exactly.
    func testMarmotSnapshotsStoredAgainstTheCurrentState() throws {
        typealias G = MarmotGroup<MLSGroupState>
        let now: Int64 = 1_800_000_000, relays = ["wss://relay.example.com"]
        let aliceKey = Secp256k1.PrivateKey()
        let (_, bundle) = try KeyPackageEvent.create(nostrKey: aliceKey, relays: relays, lastResort: false, now: now)
        var alice = try G.create(creator: bundle, name: "g", relays: relays, rng: SeededRandom(seed: 8))
        var members: [(Secp256k1.PrivateKey, MemoryKeyPackageStore)] = []
        var kps: [ValidatedKeyPackage] = []
        for _ in 0..<100 {
            let k = Secp256k1.PrivateKey(), store = MemoryKeyPackageStore()
            let (e, b) = try KeyPackageEvent.create(nostrKey: k, relays: relays, lastResort: false, now: now)
            try store.save(b)
            kps.append(try KeyPackageValidator.validate(e, now: now))
            members.append((k, store))
        }
        let add = try alice.commit(adding: kps, now: now)
        let wraps = try alice.confirmPublished(add, acknowledgedBy: relays, wrappingWelcomesFrom: aliceKey, now: now)
        var bob = try G.join(giftWrap: wraps[0], recipient: members[0].0, store: members[0].1)
        var commits: [NostrEvent] = []
        for i in 0..<MarmotProfile.epochLookback {
            let p = try alice.selfUpdate(now: now + Int64(i) + 10)
            _ = try alice.confirmPublished(p, acknowledgedBy: relays, now: now)
            commits.append(p.event)
            _ = bob.receive(event: p.event, now: now + 100)
        }
        let tree = bob.state.tree.tlsSerialized.count
        let bytes = bob.serialized()
        // One tree plus a path-sized delta per stored epoch (35 here), where version 1 held 36
        // full trees; at 1,000 members the deltas come to about a sixth of the tree.
        XCTAssertLessThan(bytes.count, tree * 3, "one tree and deltas, not \((MarmotProfile.epochLookback + 1) * (MLSGroupState.retainedEpochLimit + 1)) trees")
        var restored = try G(serialized: bytes)
        XCTAssertEqual(restored.serialized().exportBytes(), bytes.exportBytes())
        let m = try alice.message(EventTemplate(kind: MarmotProfile.chatMessageKind, content: "after restore"), now: now + 200)
        guard case .message? = restored.receive(event: m, now: now + 200).first else { return XCTFail("restored state reads") }
        XCTAssertEqual(commits.count, MarmotProfile.epochLookback)
    }

    /// Every versioned state has one envelope (`VersionedEnvelope`, PROTOCOL §5.10): a version it
    /// does not read is `unsupported_version` (the pending commits, the tree keys and the key store
    /// said `invalid_value` before), a trailing byte is `trailing_bytes`, and the bytes written are
    /// the same as before the envelope: version byte, then the body.
    func testEveryStateShareTheEnvelopeRules() throws {
        let (admin, member) = try group(size: 3, commits: 1)
        let commit = try admin.commit([], rng: SeededRandom(seed: 9))
        let bundle = try EngineHarness.bundle(7, rng: SeededRandom(seed: 10))
        let states: [(String, [UInt8], ([UInt8]) throws -> Void)] = [
            ("group state", member.serialized().exportBytes(), { _ = try MLSGroupState(serialized: SecureBytes(copying: $0)) }),
            ("tree keys", member.privateTree.serialized().exportBytes(), { _ = try TreePrivateState(serialized: SecureBytes(copying: $0)) }),
            ("pending commit", commit.serialized().exportBytes(), { _ = try MLSPendingCommit(serialized: SecureBytes(copying: $0)) }),
            ("key store", bundle.privateSerialization().exportBytes(), { _ = try KeyPackageBundle(privateSerialization: SecureBytes(copying: $0)) }),
        ]
        for (name, bytes, read) in states {
            XCTAssertNoThrow(try read(bytes), name)
            var wrong = bytes
            wrong[0] = 200
            XCTAssertThrowsError(try read(wrong), name) { XCTAssertEqual(($0 as? MLSError)?.code, .unsupportedVersion, name) }
            XCTAssertThrowsError(try read(bytes + [0]), name) { XCTAssertEqual(($0 as? MLSError)?.code, .trailingBytes, name) }
        }
        XCTAssertEqual(member.privateTree.serialized().exportBytes().first, 1)
        XCTAssertEqual(bundle.privateSerialization().exportBytes().first, 1)
        XCTAssertEqual(commit.serialized().exportBytes().first, 1)
    }
}
