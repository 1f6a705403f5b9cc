import InviteKitCrypto
import InviteKitNostr

/// The ratchet tree of a Welcome carried out of band, in chunk events (PROTOCOL §5.11,
/// docs/MIP-large-groups.md).
///
/// The serialized tree (the `ratchet_tree` extension data, RFC 9420 §12.4.3.3) is cut into
/// consecutive slices; slice `i` is sealed with the suite's AEAD under a key and nonce derived from
/// the epoch's `welcome_secret`, which every member the commit added (and every member of the new
/// epoch) can derive and nobody else:
///
/// ```
/// chunk_secret = ExpandWithLabel(welcome_secret, "marmot tree chunks", tree_hash, Nh)
/// struct { opaque tree_hash<V>; uint32 tree_length; uint32 chunk_count;
///          uint32 index; uint32 offset; uint32 length; } TreeChunkContext;
/// key_i   = ExpandWithLabel(chunk_secret, "key", TreeChunkContext_i, Nk)
/// nonce_i = ExpandWithLabel(chunk_secret, "nonce", TreeChunkContext_i, Nn)
/// sealed_i = AEAD.Seal(key_i, nonce_i, aad = TreeChunkContext_i, tree[offset ..< offset + length])
/// ```
///
/// The context names the slice's position, so no two different plaintexts share a key and nonce.
/// A chunk event is kind ``kind``, signed by a one-time key per commit, content = base64 of
/// `sealed_i`, tags `["encoding", "base64"]` and a NIP-40 `expiration`.
public enum RatchetTreeChunks {
    /// A regular (stored) kind next to Marmot's 443-445.
    package static let kind = 447
    /// Chunk events expire after this long (NIP-40): relays may drop them; a later joiner needs a
    /// re-sent Welcome of a later epoch.
    package static let lifetimeSeconds: Int64 = 14 * 24 * 60 * 60
    /// Bounds on what a joiner accepts from a Welcome's `tree_chunks` tag.
    package static let maxChunks = 1_024
    package static let maxTreeBytes = 48 * 1024 * 1024
    static let secretLabel = "marmot tree chunks"

    /// What a Welcome says about its chunks: the tree hash (the GroupContext's), the serialized
    /// tree's length, and the chunk event ids in order.
    public struct Reference: Sendable, Hashable {
        package let treeHash: [UInt8]
        package let treeLength: Int
        package let eventIDs: [String]

        package init(treeHash: [UInt8], treeLength: Int, eventIDs: [String]) throws {
            guard treeHash.count == 32 else { throw MLSError(.treeChunkInvalid, "tree hash must be 32 bytes") }
            guard !eventIDs.isEmpty, eventIDs.count <= RatchetTreeChunks.maxChunks else {
                throw MLSError(.treeChunkInvalid, "\(eventIDs.count) chunks; between 1 and \(RatchetTreeChunks.maxChunks) allowed")
            }
            guard treeLength >= eventIDs.count, treeLength <= RatchetTreeChunks.maxTreeBytes else {
                throw MLSError(.treeChunkInvalid, "tree length \(treeLength) out of range")
            }
            for id in eventIDs where id.utf8.count != 64 || Hex.decode(id, count: 32) == nil || id != id.lowercased() {
                throw MLSError(.treeChunkInvalid, "chunk event id is not 64 lowercase hex characters")
            }
            guard Set(eventIDs).count == eventIDs.count else { throw MLSError(.treeChunkInvalid, "a chunk event id repeats") }
            self.treeHash = treeHash
            self.treeLength = treeLength
            self.eventIDs = eventIDs
        }

        /// The kind-444 rumor tag: `["tree_chunks", <tree hash hex>, <tree length>, <id 0>, …]`.
        package var tag: [String] { ["tree_chunks", Hex.encode(treeHash), String(treeLength)] + eventIDs }

        /// Reads ``tag``.
        package init(tag: [String]) throws {
            guard tag.count >= 4, tag[0] == "tree_chunks", let hash = Hex.decode(tag[1], count: 32),
                  let length = Int(tag[2]), String(length) == tag[2] else {
                throw MLSError(.treeChunkInvalid, "malformed tree_chunks tag")
            }
            try self.init(treeHash: hash, treeLength: length, eventIDs: Array(tag[3...]))
        }
    }

    /// `TreeChunkContext` for slice `index` of `count`.
    static func context(treeHash: [UInt8], treeLength: Int, count: Int, index: Int, offset: Int, length: Int) -> [UInt8] {
        var w = TLSWriter(capacity: 64)
        w.writeOpaque(treeHash)
        for v in [treeLength, count, index, offset, length] { w.writeUInt32(UInt32(v)) }
        return w.bytes
    }

    /// The slice bounds of a `treeLength`-byte tree cut into `count` nearly equal slices.
    static func slices(treeLength: Int, count: Int) -> [Range<Int>] {
        let base = treeLength / count, extra = treeLength % count
        var out: [Range<Int>] = [], start = 0
        for i in 0..<count {
            let n = base + (i < extra ? 1 : 0)
            out.append(start..<(start + n))
            start += n
        }
        return out
    }

    /// The sealed slices of `tree` (at most `maxSealedBytes` each).
    package static func seal(tree: [UInt8], treeHash: [UInt8], welcomeSecret: SecureBytes, suite: CipherSuite,
                            maxSealedBytes: Int) throws -> [[UInt8]] {
        let aead = try suite.hpke().aead
        let room = maxSealedBytes - 16
        guard room > 0, !tree.isEmpty else { throw MLSError(.eventTooLarge, "no room for a tree chunk") }
        let count = (tree.count + room - 1) / room
        guard count <= maxChunks, tree.count <= maxTreeBytes else {
            throw MLSError(.eventTooLarge, "the tree (\(tree.count) bytes) needs \(count) chunks; at most \(maxChunks) allowed")
        }
        let secret = MLSCrypto.expandWithLabel(secret: welcomeSecret, label: secretLabel, context: treeHash, length: suite.hashLength)
        return try slices(treeLength: tree.count, count: count).enumerated().map { i, r in
            let ctx = context(treeHash: treeHash, treeLength: tree.count, count: count, index: i, offset: r.lowerBound, length: r.count)
            let key = MLSCrypto.expandWithLabel(secret: secret, label: "key", context: ctx, length: aead.keyCount)
            let nonce = MLSCrypto.expandWithLabel(secret: secret, label: "nonce", context: ctx, length: aead.nonceCount)
            return try aead.seal(Array(tree[r]), key: key, nonce: nonce.exportBytes(), aad: ctx)
        }
    }

    /// Opens the sealed slices, in order, into the serialized tree. Any slice that does not open,
    /// or a total that differs from `treeLength`, is `tree_chunk_invalid`.
    package static func open(_ sealed: [[UInt8]], treeHash: [UInt8], treeLength: Int, welcomeSecret: SecureBytes,
                            suite: CipherSuite) throws -> [UInt8] {
        let aead = try suite.hpke().aead
        guard !sealed.isEmpty, sealed.count <= maxChunks, treeLength >= sealed.count, treeLength <= maxTreeBytes else {
            throw MLSError(.treeChunkInvalid, "\(sealed.count) chunks for a \(treeLength)-byte tree")
        }
        let secret = MLSCrypto.expandWithLabel(secret: welcomeSecret, label: secretLabel, context: treeHash, length: suite.hashLength)
        var tree: [UInt8] = []
        tree.reserveCapacity(treeLength)
        for (i, r) in slices(treeLength: treeLength, count: sealed.count).enumerated() {
            guard sealed[i].count == r.count + 16 else { throw MLSError(.treeChunkInvalid, "chunk \(i) has the wrong length") }
            let ctx = context(treeHash: treeHash, treeLength: treeLength, count: sealed.count, index: i, offset: r.lowerBound, length: r.count)
            let key = MLSCrypto.expandWithLabel(secret: secret, label: "key", context: ctx, length: aead.keyCount)
            let nonce = MLSCrypto.expandWithLabel(secret: secret, label: "nonce", context: ctx, length: aead.nonceCount)
            do { tree += try aead.open(sealed[i], key: key, nonce: nonce.exportBytes(), aad: ctx) } catch {
                throw MLSError(.treeChunkInvalid, "chunk \(i) does not decrypt")
            }
        }
        return tree
    }

    /// Chunk events for `tree`, each within `budget`, signed by one fresh key.
    package static func events(tree: [UInt8], treeHash: [UInt8], welcomeSecret: SecureBytes, suite: CipherSuite, budget: EventBudget,
                              now: Int64, rng: RandomSource) throws -> (events: [NostrEvent], reference: Reference) {
        let tags = eventTags(now: now)
        let sealed = try seal(tree: tree, treeHash: treeHash, welcomeSecret: welcomeSecret, suite: suite,
                              maxSealedBytes: budget.maxBase64PayloadBytes(kind: kind, tags: tags))
        let signer = Secp256k1.PrivateKey(using: rng)
        let events = try sealed.map { s in
            let e = try EventTemplate(kind: kind, content: Base64.encode(s), tags: tags, createdAt: now).signed(by: signer, using: rng)
            try budget.check(e, "tree chunk event")
            return e
        }
        return (events, try Reference(treeHash: treeHash, treeLength: tree.count, eventIDs: events.map(\.id)))
    }

    /// Bytes of serialized tree one chunk event carries within `budget`.
    package static func chunkCapacity(budget: EventBudget, now: Int64) -> Int {
        budget.maxBase64PayloadBytes(kind: kind, tags: eventTags(now: now)) - 16
    }

    static func eventTags(now: Int64) -> [[String]] { [["encoding", "base64"], ["expiration", String(now + lifetimeSeconds)]] }

    /// The sealed bytes of `events` in the order `reference` names them. Every named event must be
    /// present (`tree_chunks_missing` otherwise), of kind ``kind``, correctly signed, and base64.
    /// Extra or duplicate events are ignored.
    package static func sealedChunks(_ events: [NostrEvent], for reference: Reference) throws -> [[UInt8]] {
        var byID: [String: NostrEvent] = [:]
        for e in events where byID[e.id.lowercased()] == nil { byID[e.id.lowercased()] = e }
        let missing = reference.eventIDs.filter { byID[$0] == nil }
        guard missing.isEmpty else {
            throw MLSError(.treeChunksMissing, "\(missing.count) of \(reference.eventIDs.count) tree chunk events not found")
        }
        return try reference.eventIDs.enumerated().map { i, id in
            let e = byID[id]!
            guard e.kind == kind else { throw MLSError(.treeChunkInvalid, "chunk \(i) is kind \(e.kind), not \(kind)") }
            do { _ = try e.verify() } catch { throw MLSError(.treeChunkInvalid, "chunk \(i) has a bad id or signature") }
            guard e.firstTagValue("encoding") == "base64", let bytes = Base64.decode(e.content) else {
                throw MLSError(.treeChunkInvalid, "chunk \(i) content is not base64")
            }
            return bytes
        }
    }
}
