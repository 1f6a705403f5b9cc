import InviteKitCrypto

/// TreeKEM (RFC 9420 §7.4–§7.6): creating an UpdatePath for a commit and processing a received one.
///
/// Both sides work in two steps because the path secrets are encrypted under the provisional
/// GroupContext, whose `tree_hash` already covers the path (RFC 9420 §12.4.2):
/// - committer: ``preparePath(tree:leafIndex:suite:groupID:signingKey:leafNode:rng:)``, then the
///   caller builds the GroupContext from ``PendingUpdatePath/tree`` and calls
///   ``PendingUpdatePath/updatePath(groupContext:excludingAdded:rng:)``;
/// - receiver: ``merge(_:from:into:groupID:)``, then the GroupContext from the merged tree, then
///   ``decrypt(_:from:tree:privateState:groupContext:excludingAdded:suite:)``.
package enum TreeKEM {
    static let encryptLabel = "UpdatePathNode"

    /// `DeriveKeyPair(DeriveSecret(path_secret, "node"))` (RFC 9420 §7.4).
    package static func nodeKey(pathSecret: SecureBytes) throws -> X25519.PrivateKey {
        try HPKE.deriveKeyPair(ikm: MLSCrypto.deriveSecret(secret: pathSecret, label: "node"))
    }

    /// `DeriveSecret(path_secret, "path")` (RFC 9420 §7.4).
    static func nextPathSecret(_ pathSecret: SecureBytes) -> SecureBytes {
        MLSCrypto.deriveSecret(secret: pathSecret, label: "path")
    }

    /// Starts a commit's UpdatePath for member `leafIndex` (RFC 9420 §7.4, §7.5, §7.9) on `tree`,
    /// which must already reflect the commit's proposals. A fresh leaf key pair and random
    /// `path_secret[0]` are drawn from `rng`. The new leaf copies `leafNode` (default: the current
    /// leaf) with the new encryption key, `signingKey`'s public key, source `commit` with its parent
    /// hash, and a signature over `LeafNodeTBS` bound to `groupID` and `leafIndex`.
    package static func preparePath(tree: RatchetTree, leafIndex: UInt32, suite: CipherSuite, groupID: [UInt8],
                                   signingKey: Ed25519.PrivateKey, leafNode: LeafNode? = nil,
                                   rng: RandomSource = SystemRandom()) throws -> PendingUpdatePath {
        guard suite.isSupported else { throw MLSError(.unsupportedCipherSuite, suite.description) }
        guard var leaf = leafNode ?? tree.leaf(leafIndex), tree.leaf(leafIndex) != nil else {
            throw MLSError(.invalidTree, "leaf \(leafIndex) is blank or out of range")
        }
        let path = tree.filteredDirectPathWithCopath(leaf: leafIndex)
        var secrets: [SecureBytes] = [rng.secureBytes(suite.hashLength)]
        for _ in 0..<path.count { secrets.append(nextPathSecret(secrets[secrets.count - 1])) }
        // secrets[i] belongs to path[i]; the one after the last is the commit secret.
        let commitSecret = secrets.removeLast()
        var keys: [UInt32: X25519.PrivateKey] = [:]
        for (i, step) in path.enumerated() { keys[step.node] = try nodeKey(pathSecret: secrets[i]) }

        var next = tree
        let parentHash = next.applyPath(sender: leafIndex, path: path, publicKeys: path.map { keys[$0.node]!.publicKey })
        let leafKey = X25519.PrivateKey(using: rng)
        leaf.encryptionKey = leafKey.publicKey
        leaf.signatureKey = signingKey.publicKey
        leaf.source = .commit(parentHash: parentHash)
        leaf.sign(with: signingKey, groupID: groupID, leafIndex: leafIndex)
        next.setNode(TreeMath.nodeIndex(leaf: leafIndex), .leaf(leaf))

        var privateState = TreePrivateState(leafIndex: leafIndex, leafKey: leafKey, pathKeys: keys)
        privateState.prune(against: next)
        return PendingUpdatePath(suite: suite, tree: next, leafNode: leaf, path: path, pathSecrets: secrets,
                                 commitSecret: commitSecret, privateState: privateState)
    }

    /// Merges the public part of `path`, sent by member `sender`, into `tree` (RFC 9420 §7.5,
    /// §12.4.2), after checking that it has one node per node of the sender's filtered direct path,
    /// that its leaf has source `commit` and a valid signature bound to `groupID` and `sender`, and
    /// that the leaf's parent hash is the one the path implies (RFC 9420 §7.9.2). `tree` must
    /// already reflect the commit's proposals; it is left unchanged on error.
    package static func merge(_ path: UpdatePath, from sender: UInt32, into tree: inout RatchetTree, groupID: [UInt8]) throws {
        guard tree.leaf(sender) != nil else { throw MLSError(.invalidUpdatePath, "sender leaf \(sender) is blank or out of range") }
        let steps = tree.filteredDirectPathWithCopath(leaf: sender)
        guard path.nodes.count == steps.count else {
            throw MLSError(.invalidUpdatePath, "\(path.nodes.count) path nodes for a filtered direct path of \(steps.count)")
        }
        guard case .commit(let claimed) = path.leafNode.source else {
            throw MLSError(.invalidUpdatePath, "UpdatePath leaf source is not commit")
        }
        guard path.leafNode.verifySignature(groupID: groupID, leafIndex: sender) else {
            throw MLSError(.invalidSignature, "UpdatePath LeafNode signature")
        }
        var keys = Set<[UInt8]>([path.leafNode.encryptionKey])
        for n in path.nodes {
            guard n.encryptionKey.count == 32, keys.insert(n.encryptionKey).inserted else {
                throw MLSError(.invalidUpdatePath, "path encryption keys must be distinct 32-byte X25519 keys")
            }
        }
        try checkKeysAreNew(path, from: sender, in: tree)
        let publicKeys = path.nodes.map(\.encryptionKey)
        // Checked before the tree changes, so that it is mutated in place (no copy) only once valid.
        let expected = tree.pathNodes(path: steps, publicKeys: publicKeys).first?.hash ?? []
        guard expected == claimed else { throw MLSError(.parentHashMismatch, "UpdatePath leaf parent_hash") }
        _ = tree.applyPath(sender: sender, path: steps, publicKeys: publicKeys, leaf: path.leafNode)
    }

    /// The path's encryption keys must be new to the tree, and its leaf's signature key unused by
    /// any other leaf (RFC 9420 §7.3). The sender's own leaf and direct path are being replaced.
    static func checkKeysAreNew(_ path: UpdatePath, from sender: UInt32, in tree: RatchetTree) throws {
        // Looked up in the tree's key indexes: a pass over every node per commit was most of the
        // time a large group spent processing one.
        let senderNode = TreeMath.nodeIndex(leaf: sender)
        func replaced(_ i: UInt32) -> Bool { i == senderNode || (!TreeMath.isLeaf(i) && TreeMath.contains(i, leaf: sender)) }
        for key in [path.leafNode.encryptionKey] + path.nodes.map(\.encryptionKey) {
            if let i = tree.nodes(holdingEncryptionKey: key).first(where: { !replaced($0) }) {
                throw MLSError(.invalidUpdatePath, "UpdatePath reuses the encryption key of node \(i)")
            }
        }
        if let i = tree.nodes(holdingSignatureKey: path.leafNode.signatureKey).first(where: { $0 != senderNode }) {
            throw MLSError(.invalidUpdatePath, "UpdatePath leaf reuses the signature key of node \(i)")
        }
    }

    /// Decrypts the path secret meant for `privateState`'s member from `path` (sent by `sender`
    /// and already merged into `tree` by ``merge(_:from:into:groupID:)``), derives the rest of
    /// the path, checks each derived public key against the path (RFC 9420 §7.5), and returns the
    /// member's new private state, the `commit_secret` and the decrypted path secret.
    /// `excludingAdded` lists the leaves the commit added: they got no ciphertext (RFC 9420 §12.4.2).
    package static func decrypt(_ path: UpdatePath, from sender: UInt32, tree: RatchetTree, privateState: TreePrivateState,
                               groupContext: [UInt8], excludingAdded: Set<UInt32> = [],
                               suite: CipherSuite) throws -> (privateState: TreePrivateState, commitSecret: SecureBytes, pathSecret: SecureBytes) {
        let me = privateState.leafIndex
        guard me != sender else { throw MLSError(.invalidUpdatePath, "cannot decrypt one's own UpdatePath") }
        let steps = tree.filteredDirectPathWithCopath(leaf: sender)
        guard path.nodes.count == steps.count else {
            throw MLSError(.invalidUpdatePath, "\(path.nodes.count) path nodes for a filtered direct path of \(steps.count)")
        }
        guard let i = steps.firstIndex(where: { TreeMath.contains($0.node, leaf: me) }) else {
            throw MLSError(.invalidUpdatePath, "no common ancestor with leaf \(me) on the sender's filtered direct path")
        }
        let recipients = tree.resolution(of: steps[i].copathChild).filter {
            !(TreeMath.isLeaf($0) && excludingAdded.contains(TreeMath.leafIndex(node: $0)))
        }
        let ciphertexts = path.nodes[i].encryptedPathSecret
        guard ciphertexts.count == recipients.count else {
            throw MLSError(.invalidUpdatePath, "\(ciphertexts.count) ciphertexts for a resolution of \(recipients.count)")
        }
        guard let j = recipients.firstIndex(where: { x in
            privateState.privateKey(node: x).map { tree[node: x]?.encryptionKey == $0.publicKey } ?? false
        }), let key = privateState.privateKey(node: recipients[j]) else {
            throw MLSError(.invalidUpdatePath, "no private key for the resolution of node \(steps[i].copathChild)")
        }
        var plain = try MLSCrypto.decryptWithLabel(suite: suite, privateKey: key, label: encryptLabel, context: groupContext,
                                                   ciphertext: ciphertexts[j])
        defer { zeroize(&plain) }
        guard plain.count == suite.hashLength else { throw MLSError(.invalidUpdatePath, "path secret of \(plain.count) bytes") }
        let pathSecret = SecureBytes(copying: plain)

        var next = privateState
        next.prune(against: tree)
        var secret = pathSecret
        for k in i..<steps.count {
            let nodeKey = try nodeKey(pathSecret: secret)
            guard nodeKey.publicKey == path.nodes[k].encryptionKey else {
                throw MLSError(.invalidUpdatePath, "derived public key differs for node \(steps[k].node)")
            }
            next.pathKeys[steps[k].node] = nodeKey
            secret = nextPathSecret(secret)
        }
        return (next, secret, pathSecret)
    }
}
