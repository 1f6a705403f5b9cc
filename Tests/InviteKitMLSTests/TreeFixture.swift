@testable import InviteKitVectors
import XCTest
import InviteKitCrypto
@testable import InviteKitMLS

/// A small group run by TreeKEM alone: every member processes every commit, joiners use the
/// Welcome path secret, and each step checks that all views agree.
struct TreeFixture {
    static let suite = CipherSuite.x25519Aes128GcmSha256Ed25519
    static let groupID = Array("tree-fixture-group".utf8)

    let rng: SeededRandom
    var tree: RatchetTree
    var states: [UInt32: TreePrivateState] = [:]
    var signers: [UInt32: Ed25519.PrivateKey] = [:]
    var epoch: UInt64 = 0

    /// A stand-in GroupContext: only its dependence on the tree hash and epoch matters here.
    func context(_ t: RatchetTree) -> [UInt8] {
        MLSWGTreeSuites.groupContext(suite: Self.suite, groupID: Self.groupID, epoch: epoch, treeHash: t.treeHash,
                                     confirmedTranscriptHash: [])
    }

    static func newMember(_ rng: RandomSource, name: String) -> (LeafNode, X25519.PrivateKey, Ed25519.PrivateKey) {
        let enc = X25519.PrivateKey(using: rng)
        let sig = Ed25519.PrivateKey(using: rng)
        var leaf = LeafNode(encryptionKey: enc.publicKey, signatureKey: sig.publicKey, credential: .basic(identity: Array(name.utf8)),
                            capabilities: .marmot, source: .keyPackage(Lifetime(notBefore: 0, notAfter: .max)),
                            extensions: [], signature: [])
        leaf.sign(with: sig)
        return (leaf, enc, sig)
    }

    init(seed: UInt64 = 1) {
        rng = SeededRandom(seed: seed)
        let (leaf, enc, sig) = Self.newMember(rng, name: "m0")
        tree = RatchetTree(firstLeaf: leaf)
        states[0] = TreePrivateState(leafIndex: 0, leafKey: enc)
        signers[0] = sig
    }

    /// Adds `count` members, then `sender` commits with a path; everybody processes it.
    /// Returns the commit secret.
    @discardableResult
    mutating func commit(by sender: UInt32, adding count: Int = 0, removing: [UInt32] = [],
                         file: StaticString = #filePath, line: UInt = #line) throws -> [UInt8] {
        var proposed = tree
        for r in removing { try proposed.removeLeaf(r); states[r] = nil; signers[r] = nil }
        var joiners: [UInt32: X25519.PrivateKey] = [:]
        for _ in 0..<count {
            let (leaf, enc, sig) = Self.newMember(rng, name: "m\(signers.count + joiners.count)")
            let index = proposed.addLeaf(leaf)
            joiners[index] = enc
            signers[index] = sig
        }
        let pending = try TreeKEM.preparePath(tree: proposed, leafIndex: sender, suite: Self.suite, groupID: Self.groupID,
                                              signingKey: signers[sender]!, rng: rng)
        let ctx = context(pending.tree)
        let path = try pending.updatePath(groupContext: ctx, excludingAdded: Set(joiners.keys), rng: rng)
        for (leaf, state) in states where leaf != sender {
            var mine = proposed
            try TreeKEM.merge(path, from: sender, into: &mine, groupID: Self.groupID)
            XCTAssertEqual(mine, pending.tree, "leaf \(leaf) merged a different tree", file: file, line: line)
            let out = try TreeKEM.decrypt(path, from: sender, tree: mine, privateState: state, groupContext: ctx,
                                          excludingAdded: Set(joiners.keys), suite: Self.suite)
            XCTAssertEqual(out.commitSecret.exportBytes(), pending.commitSecret.exportBytes(), "leaf \(leaf)", file: file, line: line)
            try out.privateState.verifyConsistency(with: mine)
            states[leaf] = out.privateState
        }
        states[sender] = pending.privateState
        for (leaf, enc) in joiners {
            var state = TreePrivateState(leafIndex: leaf, leafKey: enc)
            if let secret = pending.pathSecret(forJoiner: leaf) {
                try state.applyWelcomePathSecret(secret, committer: sender, tree: pending.tree)
            }
            states[leaf] = state
        }
        tree = pending.tree
        epoch += 1
        try tree.validate(suite: Self.suite, groupID: Self.groupID)
        XCTAssertEqual(tree.treeHashes(), tree.computeTreeHashes(), "cached tree hashes went stale", file: file, line: line)
        return pending.commitSecret.exportBytes()
    }
}
