import InviteKitCrypto

/// Which node holds each key of a ratchet tree, for the uniqueness rules of RFC 9420 §7.3
/// (encryption keys across all nodes, signature keys across leaves), kept by the tree's own
/// writes so that a commit checks its keys in O(keys) instead of scanning every node.
///
/// The map is split into shards, each its own copy-on-write dictionary: the tree is shared with
/// the epoch before each commit, and a commit's O(log N) key changes then copy a few small shards
/// and the outer array, not one dictionary of every key. Keys and entries are plain values, so a
/// shard copies and frees without touching a reference count. The shard comes from the
/// process-seeded `Hasher`, so keys chosen by a member cannot all be steered into one shard.
struct KeyIndex: Sendable {
    /// Where a key is held.
    enum Holders: Equatable, Sendable {
        case none
        case one(UInt32)
        /// Held twice or more (possible only in a tree not yet validated), or once by a node no
        /// longer known after its twin was removed: the caller scans the tree.
        case several
    }

    /// The two key spaces of RFC 9420 §7.3.
    enum Space: UInt8, Sendable {
        case encryption = 0, signature = 2
    }

    /// A key of the suites' 32-byte form inline; any other length by its SHA-256 digest, flagged
    /// apart so that it never equals an inline key.
    private struct Key: Hashable, Sendable {
        let a: UInt64, b: UInt64, c: UInt64, d: UInt64
        let tag: UInt8

        init(_ bytes: [UInt8], _ space: Space) {
            let inline = bytes.count == 32
            let words = inline ? bytes : SHA256.hash(bytes)
            (a, b, c, d) = words.withUnsafeBytes {
                ($0.loadUnaligned(fromByteOffset: 0, as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                 $0.loadUnaligned(fromByteOffset: 16, as: UInt64.self), $0.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
            }
            tag = space.rawValue | (inline ? 0 : 1)
        }
    }

    private struct Entry: Sendable {
        var count: UInt32
        /// The holder when `count == 1` and it is known, otherwise `.max`.
        var node: UInt32
    }

    /// Keys per shard before the shard count grows fourfold: a shard copies in a few KiB, and
    /// the outer array stays small for a small group (its copy retains every shard).
    private static var shardTarget: Int { 64 }
    private var shards: [[Key: Entry]] = [[:]]
    /// Distinct keys held.
    private var count = 0

    init() {}

    /// An empty index with as many shards as `expectedKeys` keys will need.
    init(expectedKeys: Int) {
        var n = 1
        while expectedKeys > n * Self.shardTarget { n *= 4 }
        shards = Array(repeating: [:], count: n)
    }

    private func shard(_ key: Key) -> Int { key.hashValue & (shards.count - 1) }

    func holders(of bytes: [UInt8], in space: Space) -> Holders {
        let key = Key(bytes, space)
        guard let e = shards[shard(key)][key] else { return .none }
        return e.count == 1 && e.node != .max ? .one(e.node) : .several
    }

    mutating func insert(_ bytes: [UInt8], in space: Space, node: UInt32) {
        let key = Key(bytes, space)
        let s = shard(key)
        if let e = shards[s][key] {
            shards[s][key] = Entry(count: e.count + 1, node: .max)
        } else {
            shards[s][key] = Entry(count: 1, node: node)
            count += 1
            if count > shards.count * Self.shardTarget { reshard(into: shards.count * 4) }
        }
    }

    /// Spreads the keys over `n` shards (a power of two); amortised O(1) a key, as the count
    /// only grows fourfold each time.
    private mutating func reshard(into n: Int) {
        let old = shards
        shards = Array(repeating: [:], count: n)
        for shard in old {
            for (k, e) in shard { shards[self.shard(k)][k] = e }
        }
    }

    mutating func remove(_ bytes: [UInt8], in space: Space, node: UInt32) {
        let key = Key(bytes, space)
        let s = shard(key)
        guard let e = shards[s][key] else { preconditionFailure("KeyIndex.remove of a key not held") }
        if e.count == 1 {
            shards[s][key] = nil
            count -= 1
        } else {
            // The other holder is not recorded; `.several` sends the caller to a scan.
            shards[s][key] = Entry(count: e.count - 1, node: .max)
        }
    }

    /// Every entry as (count, holder), in no order, for tests comparing an index kept by writes
    /// with a rebuilt one.
    var entries: [String: [UInt32]] {
        var out: [String: [UInt32]] = [:]
        for shard in shards {
            for (k, e) in shard { out["\(k.tag):\(k.a):\(k.b):\(k.c):\(k.d)"] = [e.count, e.node] }
        }
        return out
    }
}
