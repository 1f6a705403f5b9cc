import InviteKitCrypto

/// The secret tree of one epoch (RFC 9420 §9): per-leaf handshake and application ratchets
/// derived from `encryption_secret`.
///
/// Secrets are derived lazily and consumed: a node's secret is dropped once both children are
/// derived, a leaf's once its two ratchets exist, and each generation's key once it was used
/// (RFC 9420 §9.2). It is a value type: ``PrivateMessage`` decryption works on a copy and keeps it
/// only when the message authenticated, so a forged message cannot burn a generation.
///
/// Tolerances (RFC 9420 §9.4 leaves them to the application):
/// - ``outOfOrderWindow``: keys of skipped generations are kept while they are at most 1,000
///   generations behind the newest one received from that ratchet; older ones are deleted.
/// - ``maxForwardDistance``: a generation more than 10,000 past the next expected one is refused
///   without deriving anything, which bounds the work a single message can cause.
package struct SecretTree: Sendable {
    /// How far behind the newest received generation skipped keys are retained.
    package static let outOfOrderWindow: UInt32 = 1_000
    /// How far past the next expected generation a message may jump.
    package static let maxForwardDistance: UInt32 = 10_000

    package let suite: CipherSuite
    /// Number of leaves of the ratchet tree in this epoch.
    package let leafCount: UInt32
    /// Secrets of tree nodes not yet split, by node index (RFC 9420 §4.1 array layout).
    var nodeSecrets: [UInt32: SecureBytes]
    /// Ratchets of leaves whose secrets have been split, by leaf index.
    var ratchets: [UInt32: [HashRatchet]]
    let aead: HPKEAEAD

    /// The tree for `leafCount` leaves rooted at `encryptionSecret` (RFC 9420 §9). A leaf count
    /// that is not a power of two is treated as the next power of two, the width of the full tree.
    package init(encryptionSecret: SecureBytes, leafCount: UInt32, suite: CipherSuite) throws {
        guard leafCount >= 1, leafCount <= 1 << 30 else { throw MLSError(.invalidValue, "leaf count \(leafCount)") }
        self.suite = suite
        self.leafCount = leafCount
        aead = try suite.hpke().aead
        nodeSecrets = [Self.root(leafCount: leafCount): encryptionSecret]
        ratchets = [:]
    }

    init(suite: CipherSuite, leafCount: UInt32, nodeSecrets: [UInt32: SecureBytes], ratchets: [UInt32: [HashRatchet]]) throws {
        self.suite = suite
        self.leafCount = leafCount
        aead = try suite.hpke().aead
        self.nodeSecrets = nodeSecrets
        self.ratchets = ratchets
    }

    /// The key and nonce for the sender's next message on `type` (RFC 9420 §9.1).
    package mutating func nextKey(leaf: UInt32, type: RatchetType) throws -> RatchetKey {
        var rs = try leafRatchets(leaf)
        defer { ratchets[leaf] = rs }
        return try rs[Int(type.rawValue)].next(aead: aead, hashLength: suite.hashLength)
    }

    /// The key and nonce of `generation` on `leaf`'s `type` ratchet, for a received message. Each
    /// key is returned once; skipped generations stay available within ``outOfOrderWindow``.
    package mutating func key(leaf: UInt32, type: RatchetType, generation: UInt32) throws -> RatchetKey {
        var rs = try leafRatchets(leaf)
        defer { ratchets[leaf] = rs }
        return try rs[Int(type.rawValue)].consume(generation: generation, aead: aead, hashLength: suite.hashLength,
                                                  window: Self.outOfOrderWindow, maxForward: Self.maxForwardDistance)
    }

    /// Node index of the root of the full tree holding `leafCount` leaves (RFC 9420 §4.1, Appendix C).
    static func root(leafCount: UInt32) -> UInt32 {
        var width: UInt32 = 1
        while width < leafCount { width <<= 1 }
        return width - 1
    }

    private static func level(_ x: UInt32) -> UInt32 {
        UInt32((~x).trailingZeroBitCount)
    }

    /// The leaf's two ratchets, splitting tree secrets down to it on first use.
    private mutating func leafRatchets(_ leaf: UInt32) throws -> [HashRatchet] {
        guard leaf < leafCount else { throw MLSError(.invalidSender, "leaf \(leaf) outside a tree of \(leafCount) leaves") }
        if let rs = ratchets[leaf] { return rs }
        let target = leaf * 2
        var x = Self.root(leafCount: leafCount)
        while x != target {
            let k = Self.level(x)
            let left = x ^ (1 << (k - 1)), right = x ^ (3 << (k - 1))
            if let s = nodeSecrets.removeValue(forKey: x) {
                nodeSecrets[left] = MLSCrypto.expandWithLabel(secret: s, label: "tree", context: Array("left".utf8), length: suite.hashLength)
                nodeSecrets[right] = MLSCrypto.expandWithLabel(secret: s, label: "tree", context: Array("right".utf8), length: suite.hashLength)
            }
            x = target < x ? left : right
        }
        guard let leafSecret = nodeSecrets.removeValue(forKey: target) else {
            throw MLSError(.generationUnavailable, "leaf \(leaf) secrets were already consumed")
        }
        let rs = [RatchetType.handshake, .application].map {
            HashRatchet(secret: MLSCrypto.expandWithLabel(secret: leafSecret, label: $0.label, context: [], length: suite.hashLength))
        }
        ratchets[leaf] = rs
        return rs
    }
}
