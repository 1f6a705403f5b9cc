import InviteKitCrypto

/// A committer's UpdatePath before its path secrets are encrypted (RFC 9420 §7.4–§7.6): the tree
/// with the new path merged, the committer's new private keys and the commit secret. Build the
/// provisional GroupContext from ``tree``, then call
/// ``updatePath(groupContext:excludingAdded:rng:)``.
package struct PendingUpdatePath: Sendable {
    let suite: CipherSuite
    /// The tree after the path (new leaf, parent keys and parent hashes).
    package let tree: RatchetTree
    /// The committer's new leaf node.
    package let leafNode: LeafNode
    let path: [(node: UInt32, copathChild: UInt32)]
    /// `pathSecrets[i]` belongs to `path[i].node`.
    let pathSecrets: [SecureBytes]
    /// `commit_secret` (RFC 9420 §8): the path secret after the root's.
    package let commitSecret: SecureBytes
    /// The committer's private keys after the commit.
    package let privateState: TreePrivateState

    /// The `path_secret` for a new member's GroupSecrets (RFC 9420 §12.4.3.1): the one of the
    /// lowest node of the filtered direct path above `leaf`, `nil` when there is none.
    package func pathSecret(forJoiner leaf: UInt32) -> SecureBytes? {
        path.firstIndex { TreeMath.contains($0.node, leaf: leaf) }.map { pathSecrets[$0] }
    }

    /// The UpdatePath: each path secret encrypted with `EncryptWithLabel(…, "UpdatePathNode",
    /// groupContext, …)` to every node of its copath child's resolution except the leaves in
    /// `excludingAdded` (the commit's new members), in resolution order (RFC 9420 §7.6, §12.4.2).
    package func updatePath(groupContext: [UInt8], excludingAdded: Set<UInt32> = [],
                           rng: RandomSource = SystemRandom()) throws -> UpdatePath {
        var nodes: [UpdatePathNode] = []
        nodes.reserveCapacity(path.count)
        for (i, step) in path.enumerated() {
            let recipients = tree.resolution(of: step.copathChild).filter {
                !(TreeMath.isLeaf($0) && excludingAdded.contains(TreeMath.leafIndex(node: $0)))
            }
            let sealed = try recipients.map { x -> HPKECiphertext in
                guard let key = tree[node: x]?.encryptionKey else { throw MLSError(.invalidTree, "blank node \(x) in a resolution") }
                return try MLSCrypto.encryptWithLabel(suite: suite, publicKey: key, label: TreeKEM.encryptLabel,
                                                      context: groupContext, plaintext: pathSecrets[i], rng: rng)
            }
            guard let key = tree[node: step.node]?.encryptionKey else { throw MLSError(.invalidTree, "path node \(step.node) is blank") }
            nodes.append(UpdatePathNode(encryptionKey: key, encryptedPathSecret: sealed))
        }
        return UpdatePath(leafNode: leafNode, nodes: nodes)
    }
}
