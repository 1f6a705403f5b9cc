import XCTest
import InviteKitCrypto
@testable import InviteKitMLS

/// Malformed ratchet trees, private states and UpdatePaths: each is a typed ``MLSError``.
final class TreeHostileInputTests: XCTestCase {
    func assertMLSError(_ code: MLSError.Code? = nil, _ body: () throws -> Void, _ message: String = "",
                        file: StaticString = #filePath, line: UInt = #line) {
        do {
            try body()
            XCTFail("no error: \(message)", file: file, line: line)
        } catch let e as MLSError {
            if let code { XCTAssertEqual(e.code, code, "\(message) \(e)", file: file, line: line) }
        } catch {
            XCTFail("not an MLSError: \(error) \(message)", file: file, line: line)
        }
    }

    func group() throws -> TreeFixture {
        var g = TreeFixture(seed: 99)
        try g.commit(by: 0, adding: 4)
        try g.commit(by: 2, adding: 1)  // leaves 5 unmerged somewhere
        return g
    }

    /// The wire form as a list of (present, node) entries, for building bad trees.
    func encode(_ entries: [Node?], presence: [UInt8]? = nil) -> [UInt8] {
        var w = TLSWriter()
        w.writeVector { v in
            for (i, n) in entries.enumerated() {
                if let n { v.writeUInt8(presence?[i] ?? 1); n.encode(to: &v) } else { v.writeUInt8(presence?[i] ?? 0) }
            }
        }
        return w.bytes
    }

    func testEveryTruncationOfATreeIsRejected() throws {
        let bytes = try group().tree.tlsSerialized
        for n in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 300)) {
            assertMLSError(nil, { _ = try RatchetTree(tlsSerialized: Array(bytes[..<n])) }, "prefix \(n)")
        }
        assertMLSError(.trailingBytes) { _ = try RatchetTree(tlsSerialized: bytes + [0]) }
    }

    func testGarbageIsRejected() {
        let rng = SeededRandom(seed: 5)
        for i in 0..<300 {
            let n = Int(rng.uniform(200))
            var b = rng.secureBytes(n).exportBytes()
            if i % 2 == 0, !b.isEmpty { b[0] = UInt8(min(n - 1, 63)) }  // a plausible length header
            do { _ = try RatchetTree(tlsSerialized: b) } catch is MLSError {} catch { XCTFail("\(error)") }
        }
    }

    func testWrongNodeTypesEmptyTreesAndPresenceBytes() throws {
        let t = try group().tree
        let leaf = try XCTUnwrap(t[node: 0]), parent = try XCTUnwrap(t[node: 1])
        assertMLSError(.invalidTree) { _ = try RatchetTree(tlsSerialized: self.encode([parent])) }
        assertMLSError(.invalidTree) { _ = try RatchetTree(tlsSerialized: self.encode([leaf, leaf, leaf])) }
        assertMLSError(.invalidTree) { _ = try RatchetTree(tlsSerialized: self.encode([])) }
        assertMLSError(.invalidValue) { _ = try RatchetTree(tlsSerialized: self.encode([leaf, nil, leaf], presence: [1, 2, 1])) }
        var bad = leaf.tlsSerialized
        bad[0] = 3
        var w = TLSWriter()
        w.writeOpaque([1] + bad)
        assertMLSError(.invalidValue) { _ = try RatchetTree(tlsSerialized: w.bytes) }
    }

    func testTrailingBlankIsRejected() throws {
        let t = try group().tree
        let entries = Array(t.nodes[..<((t.nodes.lastIndex { $0 != nil } ?? 0) + 1)])
        XCTAssertNoThrow(try RatchetTree(tlsSerialized: encode(entries)))
        assertMLSError(.invalidTree) { _ = try RatchetTree(tlsSerialized: self.encode(entries + [nil])) }
        assertMLSError(.invalidTree) { _ = try RatchetTree(tlsSerialized: self.encode(entries + [nil, nil])) }
    }

    func testUnmergedLeavesOutOfRangeOrBlankOrUnsorted() throws {
        let g = try group()
        let rootIndex = g.tree.leafCount - 1
        guard let root = g.tree[node: rootIndex]?.parentNode else { return XCTFail("root blank") }
        for (list, why) in [([root.unmergedLeaves.last ?? 0, 1_000_000], "out of range"), ([UInt32.max], "huge"),
                            ([7], "blank leaf"), ([5, 3], "unsorted"), ([3, 3], "duplicate")] {
            var t = g.tree
            var r = root
            r.unmergedLeaves = list
            t.setNode(rootIndex, .parent(r))
            let reparsed = try RatchetTree(tlsSerialized: t.tlsSerialized)
            assertMLSError(nil, { try reparsed.validate(suite: TreeFixture.suite, groupID: TreeFixture.groupID) }, why)
            XCTAssertThrowsError(try reparsed.validateUnmergedLeaves(), why)
        }
    }

    func testParentHashMismatchIsDetected() throws {
        let g = try group()
        XCTAssertNoThrow(try g.tree.verifyParentHashes())
        for x in stride(from: UInt32(1), to: UInt32(g.tree.nodes.count), by: 2) {
            guard var p = g.tree[node: x]?.parentNode else { continue }
            var t = g.tree
            p.parentHash = p.parentHash.isEmpty ? [1] : p.parentHash.map { $0 ^ 0xff }
            t.setNode(x, .parent(p))
            assertMLSError(.parentHashMismatch, { try t.verifyParentHashes() }, "node \(x)")
            var k = g.tree
            guard var q = g.tree[node: x]?.parentNode else { continue }
            q.encryptionKey = Array(repeating: 9, count: 32)
            k.setNode(x, .parent(q))
            assertMLSError(.parentHashMismatch, { try k.verifyParentHashes() }, "key of node \(x)")
        }
    }

    func testTreeHashMismatchAndBadLeafSignature() throws {
        let g = try group()
        assertMLSError(.treeHashMismatch) {
            try g.tree.validate(suite: TreeFixture.suite, groupID: TreeFixture.groupID, expectedTreeHash: [UInt8](repeating: 0, count: 32))
        }
        assertMLSError(.invalidSignature) { try g.tree.validate(suite: TreeFixture.suite, groupID: Array("other".utf8)) }
        var t = g.tree
        var leaf = try XCTUnwrap(t.leaf(1))
        leaf.signature[0] ^= 1
        t.setNode(2, .leaf(leaf))
        assertMLSError(.invalidSignature) { try t.validate(suite: TreeFixture.suite, groupID: TreeFixture.groupID) }
        assertMLSError(.unsupportedCipherSuite) { try g.tree.validate(suite: CipherSuite(rawValue: 2), groupID: TreeFixture.groupID) }
    }

    func testDuplicateKeysAreRejected() throws {
        let g = try group()
        var t = g.tree
        var leaf = try XCTUnwrap(t.leaf(3))
        leaf.signatureKey = try XCTUnwrap(t.leaf(1)).signatureKey
        t.setNode(6, .leaf(leaf))
        assertMLSError(nil) { try t.validate(suite: TreeFixture.suite, groupID: TreeFixture.groupID) }
    }

    /// A commit prepared on the fixture, with the receiver's view before merging.
    func pendingCommit() throws -> (TreeFixture, PendingUpdatePath, UpdatePath, [UInt8]) {
        let g = try group()
        let pending = try TreeKEM.preparePath(tree: g.tree, leafIndex: 1, suite: TreeFixture.suite, groupID: TreeFixture.groupID,
                                              signingKey: g.signers[1]!, rng: g.rng)
        let ctx = g.context(pending.tree)
        return (g, pending, try pending.updatePath(groupContext: ctx, rng: g.rng), ctx)
    }

    func testUpdatePathWithWrongNodeCountIsRejected() throws {
        let (g, _, path, ctx) = try pendingCommit()
        for nodes in [Array(path.nodes.dropLast()), path.nodes + [path.nodes[0]], []] {
            var bad = path
            bad.nodes = nodes
            var t = g.tree
            assertMLSError(.invalidUpdatePath) { try TreeKEM.merge(bad, from: 1, into: &t, groupID: TreeFixture.groupID) }
            XCTAssertEqual(t, g.tree, "tree changed by a rejected path")
            assertMLSError(.invalidUpdatePath) {
                _ = try TreeKEM.decrypt(bad, from: 1, tree: g.tree, privateState: g.states[0]!, groupContext: ctx, suite: TreeFixture.suite)
            }
        }
    }

    func testUpdatePathLeafTamperingIsRejected() throws {
        let (g, _, path, _) = try pendingCommit()
        var t = g.tree
        var bad = path
        bad.leafNode.source = .commit(parentHash: [UInt8](repeating: 1, count: 32))
        bad.leafNode.sign(with: g.signers[1]!, groupID: TreeFixture.groupID, leafIndex: 1)
        assertMLSError(.parentHashMismatch) { try TreeKEM.merge(bad, from: 1, into: &t, groupID: TreeFixture.groupID) }
        bad = path
        bad.leafNode.source = .update
        assertMLSError(.invalidUpdatePath) { try TreeKEM.merge(bad, from: 1, into: &t, groupID: TreeFixture.groupID) }
        assertMLSError(.invalidSignature) { try TreeKEM.merge(path, from: 2, into: &t, groupID: TreeFixture.groupID) }
        bad = path
        bad.nodes[0].encryptionKey = [1, 2, 3]
        assertMLSError(.invalidUpdatePath) { try TreeKEM.merge(bad, from: 1, into: &t, groupID: TreeFixture.groupID) }
        assertMLSError(.invalidUpdatePath) { try TreeKEM.merge(path, from: 40, into: &t, groupID: TreeFixture.groupID) }
        XCTAssertEqual(t, g.tree)
    }

    func testUpdatePathCiphertextTamperingIsRejected() throws {
        let (g, _, path, ctx) = try pendingCommit()
        var merged = g.tree
        try TreeKEM.merge(path, from: 1, into: &merged, groupID: TreeFixture.groupID)
        let receiver = g.states[0]!
        XCTAssertNoThrow(try TreeKEM.decrypt(path, from: 1, tree: merged, privateState: receiver, groupContext: ctx, suite: TreeFixture.suite))
        var bad = path
        bad.nodes[0].encryptedPathSecret[0].ciphertext[0] ^= 1
        assertMLSError(.decryptionFailed) {
            _ = try TreeKEM.decrypt(bad, from: 1, tree: merged, privateState: receiver, groupContext: ctx, suite: TreeFixture.suite)
        }
        bad = path
        bad.nodes[0].encryptedPathSecret.append(bad.nodes[0].encryptedPathSecret[0])
        assertMLSError(.invalidUpdatePath) {
            _ = try TreeKEM.decrypt(bad, from: 1, tree: merged, privateState: receiver, groupContext: ctx, suite: TreeFixture.suite)
        }
        assertMLSError(.decryptionFailed) {
            _ = try TreeKEM.decrypt(path, from: 1, tree: merged, privateState: receiver, groupContext: ctx + [0], suite: TreeFixture.suite)
        }
        assertMLSError(.invalidUpdatePath) {
            _ = try TreeKEM.decrypt(path, from: 1, tree: merged, privateState: g.states[1]!, groupContext: ctx, suite: TreeFixture.suite)
        }
        // Public keys in the path that do not follow from the path secret.
        bad = path
        if bad.nodes.count > 1 { bad.nodes[bad.nodes.count - 1].encryptionKey = X25519.PrivateKey(using: g.rng).publicKey }
        assertMLSError(.invalidUpdatePath) {
            _ = try TreeKEM.decrypt(bad, from: 1, tree: merged, privateState: receiver, groupContext: ctx, suite: TreeFixture.suite)
        }
    }

    func testPrivateStateGarbageIsRejected() throws {
        let good = try group().states[0]!.serialized().exportBytes()
        for n in 0..<good.count {
            assertMLSError(nil, { _ = try TreePrivateState(serialized: SecureBytes(copying: good[..<n])) }, "prefix \(n)")
        }
        var wrongVersion = good
        wrongVersion[0] = 9
        // An unknown version is `unsupported_version`, as for every versioned state (PROTOCOL §5.10).
        assertMLSError(.unsupportedVersion) { _ = try TreePrivateState(serialized: SecureBytes(copying: wrongVersion)) }
        assertMLSError(.trailingBytes) { _ = try TreePrivateState(serialized: SecureBytes(copying: good + [0])) }
    }
}

extension TreeHostileInputTests {
    func testUpdatePathReusingKeysIsRejected() throws {
        let (g, _, path, _) = try pendingCommit()
        var t = g.tree
        var bad = path
        bad.nodes[0].encryptionKey = try XCTUnwrap(g.tree.leaf(3)).encryptionKey
        assertMLSError(.invalidUpdatePath) { try TreeKEM.merge(bad, from: 1, into: &t, groupID: TreeFixture.groupID) }
        // A leaf that takes over another member's signature key, correctly signed with that key.
        bad = path
        bad.leafNode.signatureKey = g.signers[3]!.publicKey
        bad.leafNode.sign(with: g.signers[3]!, groupID: TreeFixture.groupID, leafIndex: 1)
        assertMLSError(.invalidUpdatePath) { try TreeKEM.merge(bad, from: 1, into: &t, groupID: TreeFixture.groupID) }
        XCTAssertEqual(t, g.tree)
    }
}
