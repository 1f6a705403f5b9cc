import XCTest
import InviteKitCrypto
@testable import InviteKitMLS

/// The ratchet tree's structural sharing and key indexes (issue 18): the key-uniqueness rules of
/// RFC 9420 §7.3 now read indexes kept by the tree's writes, and a copied tree shares chunks.
final class TreeKeyIndexTests: XCTestCase {
    /// Eight members; leaf 5's commit sets parents 9 and 11, away from leaf 0's direct path (1, 3, 7).
    private func group() throws -> TreeFixture {
        var g = TreeFixture(seed: 18)
        try g.commit(by: 0, adding: 7)
        try g.commit(by: 5)
        XCTAssertNotNil(g.tree[node: 9]?.parentNode)
        return g
    }

    private func assertCode(_ code: MLSError.Code, file: StaticString = #filePath, line: UInt = #line,
                            _ body: () throws -> Void) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual((error as? MLSError)?.code, code, "\(error)", file: file, line: line)
        }
    }

    /// Leaf 0's UpdatePath, with `edit` applied to its leaf and path keys; the leaf's parent hash
    /// and signature are redone so that only the key rule can reject it.
    private func path(_ g: TreeFixture, edit: (inout LeafNode, inout [[UInt8]]) -> Void,
                      signer: Ed25519.PrivateKey? = nil) throws -> UpdatePath {
        let pending = try TreeKEM.preparePath(tree: g.tree, leafIndex: 0, suite: TreeFixture.suite, groupID: TreeFixture.groupID,
                                              signingKey: g.signers[0]!, rng: g.rng)
        var path = try pending.updatePath(groupContext: g.context(pending.tree), rng: g.rng)
        var leaf = path.leafNode
        var keys = path.nodes.map(\.encryptionKey)
        edit(&leaf, &keys)
        let steps = g.tree.filteredDirectPathWithCopath(leaf: 0)
        leaf.source = .commit(parentHash: g.tree.pathNodes(path: steps, publicKeys: keys).first?.hash ?? [])
        leaf.sign(with: signer ?? g.signers[0]!, groupID: TreeFixture.groupID, leafIndex: 0)
        path.leafNode = leaf
        for k in path.nodes.indices { path.nodes[k] = UpdatePathNode(encryptionKey: keys[k], encryptedPathSecret: path.nodes[k].encryptedPathSecret) }
        return path
    }

    func testUntouchedPathMerges() throws {
        let g = try group()
        var tree = g.tree
        XCTAssertNoThrow(try TreeKEM.merge(try path(g) { _, _ in }, from: 0, into: &tree, groupID: TreeFixture.groupID))
    }

    func testUpdatePathNodeReusingAFarParentKeyIsRejected() throws {
        let g = try group()
        let far = try XCTUnwrap(g.tree[node: 9]?.parentNode).encryptionKey
        let p = try path(g) { _, keys in keys[keys.count - 1] = far }
        var tree = g.tree
        assertCode(.invalidUpdatePath) { try TreeKEM.merge(p, from: 0, into: &tree, groupID: TreeFixture.groupID) }
        XCTAssertEqual(tree, g.tree, "the tree is unchanged on error")
    }

    func testUpdatePathLeafReusingAFarLeafKeyIsRejected() throws {
        let g = try group()
        let far = try XCTUnwrap(g.tree.leaf(7)).encryptionKey
        let p = try path(g) { leaf, _ in leaf.encryptionKey = far }
        var tree = g.tree
        assertCode(.invalidUpdatePath) { try TreeKEM.merge(p, from: 0, into: &tree, groupID: TreeFixture.groupID) }
    }

    func testUpdatePathLeafReusingAnotherSignatureKeyIsRejected() throws {
        let g = try group()
        let other = try XCTUnwrap(g.signers[6])
        let p = try path(g, edit: { leaf, _ in leaf.signatureKey = other.publicKey }, signer: other)
        var tree = g.tree
        assertCode(.invalidUpdatePath) { try TreeKEM.merge(p, from: 0, into: &tree, groupID: TreeFixture.groupID) }
    }

    /// The sender's own old keys are being replaced, so a path may not trip over them.
    func testUpdatePathMayReplaceTheSendersOwnNodes() throws {
        let g = try group()
        let own = try XCTUnwrap(g.tree[node: 3]?.parentNode).encryptionKey
        let p = try path(g) { _, keys in keys[keys.count - 2] = own }
        var tree = g.tree
        XCTAssertNoThrow(try TreeKEM.merge(p, from: 0, into: &tree, groupID: TreeFixture.groupID))
    }

    private func context(_ g: TreeFixture) -> GroupContext {
        GroupContext(cipherSuite: TreeFixture.suite, groupID: TreeFixture.groupID, epoch: g.epoch, treeHash: g.tree.treeHash,
                     confirmedTranscriptHash: [], extensions: [])
    }

    /// Leaf 2's Update proposal with its encryption key replaced by `key`.
    private func update(_ g: TreeFixture, encryptionKey key: [UInt8]? = nil, signer: Ed25519.PrivateKey? = nil) throws -> LeafNode {
        var leaf = try XCTUnwrap(g.tree.leaf(2))
        leaf.encryptionKey = key ?? X25519.PrivateKey(using: g.rng).publicKey
        if let signer { leaf.signatureKey = signer.publicKey }
        leaf.source = .update
        leaf.sign(with: signer ?? g.signers[2]!, groupID: TreeFixture.groupID, leafIndex: 2)
        return leaf
    }

    func testUpdateProposalKeyRules() throws {
        let g = try group()
        let fresh = try update(g)
        XCTAssertNoThrow(try AppliedProposals(proposals: [(.update(fresh), 2, true)], committer: 0, tree: g.tree, context: context(g)))
        let reused = try update(g, encryptionKey: try XCTUnwrap(g.tree[node: 11]?.parentNode).encryptionKey)
        assertCode(.invalidProposal) {
            _ = try AppliedProposals(proposals: [(.update(reused), 2, true)], committer: 0, tree: g.tree, context: context(g))
        }
        let stolen = try update(g, signer: g.signers[7]!)
        assertCode(.invalidProposal) {
            _ = try AppliedProposals(proposals: [(.update(stolen), 2, true)], committer: 0, tree: g.tree, context: context(g))
        }
    }

    /// A KeyPackage whose leaf carries `encryptionKey` and is signed by `signer` (fresh ones when nil).
    private func keyPackage(_ g: TreeFixture, encryptionKey: [UInt8]? = nil, signer: Ed25519.PrivateKey? = nil) throws -> KeyPackage {
        let bundle = try KeyPackageBundle.create(identity: g.rng.bytes(32), lifetime: Lifetime(notBefore: 0, notAfter: .max),
                                                 lastResort: false, rng: g.rng)
        var kp = bundle.keyPackage
        let sig = signer ?? bundle.signaturePrivateKey
        if let encryptionKey { kp.leafNode.encryptionKey = encryptionKey }
        kp.leafNode.signatureKey = sig.publicKey
        kp.leafNode.signature = MLSCrypto.signWithLabel(sig, label: "LeafNodeTBS", content: kp.leafNode.tbs)
        kp.signature = MLSCrypto.signWithLabel(sig, label: "KeyPackageTBS", content: kp.tbs)
        return kp
    }

    func testAddKeyRules() throws {
        let g = try group()
        let fresh = try keyPackage(g)
        XCTAssertNoThrow(try AppliedProposals(proposals: [(.add(fresh), 0, false)], committer: 0, tree: g.tree, context: context(g)))
        let parentKey = try XCTUnwrap(g.tree[node: 9]?.parentNode).encryptionKey
        assertCode(.invalidProposal) {
            _ = try AppliedProposals(proposals: [(.add(try keyPackage(g, encryptionKey: parentKey)), 0, false)], committer: 0,
                                     tree: g.tree, context: context(g))
        }
        assertCode(.invalidProposal) {
            _ = try AppliedProposals(proposals: [(.add(try keyPackage(g, signer: g.signers[6]!)), 0, false)], committer: 0,
                                     tree: g.tree, context: context(g))
        }
        // Two Adds of one commit may not share a key either: the first is in the index when the
        // second is checked.
        let twin = try keyPackage(g, encryptionKey: fresh.leafNode.encryptionKey)
        assertCode(.invalidProposal) {
            _ = try AppliedProposals(proposals: [(.add(fresh), 0, false), (.add(twin), 0, false)], committer: 0,
                                     tree: g.tree, context: context(g))
        }
    }

    private func assertIndexesMatchRebuilt(_ tree: RatchetTree, file: StaticString = #filePath, line: UInt = #line) throws {
        let rebuilt = try RatchetTree(nodes: tree.nodes)
        XCTAssertEqual(tree.keyIndexEntries, rebuilt.keyIndexEntries, "kept key index differs from a rebuilt one", file: file, line: line)
        XCTAssertEqual(tree.treeHashes(), tree.computeTreeHashes(), file: file, line: line)
        for x in 0..<UInt32(tree.nodes.count) {
            let r = TreeMath.subtreeRange(x)
            let blank = tree.nodes[Int(r.lowerBound)...Int(r.upperBound)].allSatisfy { $0 == nil }
            XCTAssertEqual(tree.isBlankSubtree(x), blank, "blank subtree \(x)", file: file, line: line)
        }
    }

    func testKeptIndexEqualsRebuiltAfterRandomChurn() throws {
        var g = TreeFixture(seed: 77)
        try g.commit(by: 0, adding: 40)
        // Choices from the fixture's seeded stream, so that a failure replays.
        func pick(_ n: Int) -> Int { Int(g.rng.bytes(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } % UInt32(n)) }
        var widest = 0
        for step in 0..<30 {
            let members = g.tree.occupiedLeaves
            let sender = members[pick(members.count)]
            let others = members.filter { $0 != sender }
            switch others.count < 4 ? 0 : step % 3 {
            case 0: try g.commit(by: sender, adding: 1 + pick(6))
            case 1:
                var victims: Set<UInt32> = []
                for _ in 0..<(1 + pick(3)) { victims.insert(others[pick(others.count)]) }
                try g.commit(by: sender, removing: victims.sorted())
            default:
                // An Update by one member, then a commit by another.
                let updater = others[pick(others.count)]
                var leaf = try XCTUnwrap(g.tree.leaf(updater))
                let key = X25519.PrivateKey(using: g.rng)
                leaf.encryptionKey = key.publicKey
                leaf.source = .update
                leaf.sign(with: g.signers[updater]!, groupID: TreeFixture.groupID, leafIndex: updater)
                try g.tree.updateLeaf(updater, with: leaf)
                g.states[updater] = TreePrivateState(leafIndex: updater, leafKey: key)
                for (l, s) in g.states { var s = s; s.prune(against: g.tree); g.states[l] = s }
                try g.commit(by: sender)
            }
            widest = max(widest, g.tree.nodes.count)
            try assertIndexesMatchRebuilt(g.tree)
        }
        XCTAssertGreaterThan(widest, ChunkedArray<Node?>.chunkSize, "the tree spanned several chunks")
    }

    func testIndexFollowsDeltaLoadAndWholeTreeAssignment() throws {
        let g = try group()
        var changed = g.tree
        try changed.removeLeaf(7)
        var w = TLSWriter()
        changed.encodeDelta(from: g.tree, to: &w)
        var r = TLSReader(w.bytes)
        let loaded = try RatchetTree(delta: &r, base: g.tree)
        XCTAssertEqual(loaded, changed)
        try assertIndexesMatchRebuilt(loaded)
        XCTAssertEqual(loaded.keyIndexEntries, changed.keyIndexEntries)
        var assigned = g.tree
        assigned.nodes = changed.nodes
        try assertIndexesMatchRebuilt(assigned)
    }

    func testCopiesStayIndependent() throws {
        var g = TreeFixture(seed: 5)
        try g.commit(by: 0, adding: 40)
        try g.commit(by: 33)
        let original = g.tree
        let nodes = original.nodes, hashes = original.treeHashes(), entries = original.keyIndexEntries
        XCTAssertGreaterThan(nodes.count, ChunkedArray<Node?>.chunkSize, "spans several chunks")
        var copy = original
        try g.commit(by: 3, removing: [40])
        copy = g.tree
        var third = original
        try third.removeLeaf(1)
        third.addLeaf(TreeFixture.newMember(g.rng, name: "late").0)
        XCTAssertNotEqual(copy, original)
        XCTAssertEqual(original.nodes, nodes, "the copied-from tree keeps its nodes")
        XCTAssertEqual(original.treeHashes(), hashes, "and its tree hashes")
        XCTAssertEqual(original.keyIndexEntries, entries, "and its key index")
        XCTAssertEqual(original.treeHash, try RatchetTree(nodes: nodes).treeHash)
        try assertIndexesMatchRebuilt(third)
        try assertIndexesMatchRebuilt(copy)

        // A delta skips the chunks the two trees share; it is byte for byte the delta against an
        // unshared copy of the base, and reads back as the tree.
        let unshared = try RatchetTree(nodes: nodes)
        var viaShared = TLSWriter(), viaUnshared = TLSWriter()
        third.encodeDelta(from: original, to: &viaShared)
        third.encodeDelta(from: unshared, to: &viaUnshared)
        XCTAssertEqual(viaShared.bytes, viaUnshared.bytes)
        var r = TLSReader(viaShared.bytes)
        XCTAssertEqual(try RatchetTree(delta: &r, base: original), third)
    }

    func testChunkedArrayMatchesArray() {
        var a: [Int] = [], c = ChunkedArray<Int>()
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            if Bool.random(using: &rng) || a.isEmpty {
                let more = (0..<Int.random(in: 0...150, using: &rng)).map { _ in Int.random(in: 0...1000, using: &rng) }
                a += more; c.append(contentsOf: more)
            } else {
                let k = Int.random(in: 0...a.count, using: &rng)
                a.removeLast(k); c.removeLast(k)
            }
            let snapshot = c
            if !a.isEmpty {
                let i = Int.random(in: 0..<a.count, using: &rng)
                a[i] += 1; c[i] += 1
                XCTAssertEqual(snapshot[i] + 1, c[i], "a copy does not see a write")
            }
            XCTAssertEqual(Array(c), a)
            XCTAssertEqual(c.count, a.count)
        }
    }
}
