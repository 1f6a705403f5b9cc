import InviteKitCrypto

/// A member's private TreeKEM keys (RFC 9420 §7.4): the HPKE private key of its leaf and of each
/// parent node on its direct path whose path secret it learned. Keys stay in `SecureBytes`.
package struct TreePrivateState: Sendable {
    /// The member's leaf index.
    package let leafIndex: UInt32
    /// The leaf's HPKE private key.
    let leafKey: X25519.PrivateKey
    /// HPKE private keys of parent nodes, by node index.
    package var pathKeys: [UInt32: X25519.PrivateKey]

    /// A member that knows only its leaf key (a joiner before it applies a path secret, or a member
    /// whose path was blanked).
    package init(leafIndex: UInt32, leafKey: X25519.PrivateKey) {
        self.leafIndex = leafIndex
        self.leafKey = leafKey
        self.pathKeys = [:]
    }

    init(leafIndex: UInt32, leafKey: X25519.PrivateKey, pathKeys: [UInt32: X25519.PrivateKey]) {
        self.leafIndex = leafIndex
        self.leafKey = leafKey
        self.pathKeys = pathKeys
    }

    /// The private key for node `x`, when this member holds it.
    func privateKey(node x: UInt32) -> X25519.PrivateKey? {
        x == TreeMath.nodeIndex(leaf: leafIndex) ? leafKey : pathKeys[x]
    }

    /// Installs the keys a path secret for node `start` implies: the key of `start` and, deriving
    /// `path_secret[n+1] = DeriveSecret(path_secret[n], "path")`, of every later node of
    /// `filteredPath` (RFC 9420 §7.4). Used by a joiner with the `path_secret` of its GroupSecrets
    /// (RFC 9420 §12.4.3.1). Returns the secret after the last node: the commit secret.
    mutating func install(pathSecret: SecureBytes, at start: UInt32, along filteredPath: [UInt32]) throws -> SecureBytes {
        guard let from = filteredPath.firstIndex(of: start) else {
            throw MLSError(.invalidUpdatePath, "node \(start) is not on the path")
        }
        var secret = pathSecret
        for node in filteredPath[from...] {
            pathKeys[node] = try TreeKEM.nodeKey(pathSecret: secret)
            secret = TreeKEM.nextPathSecret(secret)
        }
        return secret
    }

    /// Applies the `path_secret` a Welcome carries (RFC 9420 §12.4.3.1): it belongs to the lowest
    /// node of the committer's filtered direct path above this member.
    package mutating func applyWelcomePathSecret(_ pathSecret: SecureBytes, committer: UInt32, tree: RatchetTree) throws {
        let path = tree.filteredDirectPath(leaf: committer)
        guard let start = path.first(where: { TreeMath.contains($0, leaf: leafIndex) }) else {
            throw MLSError(.invalidUpdatePath, "no common ancestor with the committer")
        }
        _ = try install(pathSecret: pathSecret, at: start, along: path)
        try verifyConsistency(with: tree)
    }

    /// Drops the keys of nodes that are now blank or hold another public key.
    mutating func prune(against tree: RatchetTree) {
        pathKeys = pathKeys.filter { tree[node: $0.key]?.encryptionKey == $0.value.publicKey }
    }

    /// Fails unless every key held matches the public key of a non-blank node of `tree`.
    package func verifyConsistency(with tree: RatchetTree) throws {
        guard tree.leaf(leafIndex)?.encryptionKey == leafKey.publicKey else {
            throw MLSError(.invalidKey, "leaf private key does not match leaf \(leafIndex)")
        }
        for (x, key) in pathKeys where tree[node: x]?.encryptionKey != key.publicKey {
            throw MLSError(.invalidKey, "private key of node \(x) does not match the tree")
        }
    }
}
