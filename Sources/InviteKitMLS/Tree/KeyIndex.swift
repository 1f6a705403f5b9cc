/// Which node holds each key of a ratchet tree, for the uniqueness rules of RFC 9420 §7.3, kept
/// by the tree's own writes so that a commit checks its keys in O(keys) instead of scanning every
/// node.
///
/// The map is split into shards, each its own copy-on-write dictionary: the tree is shared with
/// the epoch before each commit, and a commit's O(log N) key changes then copy a few small shards
/// and the outer array, not one dictionary of every key. The shard comes from the process-seeded
/// `Hasher`, so keys chosen by a member cannot all be steered into one shard.
struct KeyIndex: Sendable {
    /// Where a key is held.
    enum Holders: Equatable {
        case none
        case one(UInt32)
        /// Held twice or more (possible only in a tree not yet validated), or once by a node no
        /// longer known after its twin was removed: the caller scans the tree.
        case several
    }

    private struct Entry: Sendable {
        var count: UInt32
        /// The holder when `count == 1` and it is known, otherwise `.max`.
        var node: UInt32
    }

    /// A key, hashed as one run of bytes (an array of bytes hashes byte by byte).
    private struct Key: Hashable, Sendable {
        let bytes: [UInt8]
        func hash(into h: inout Hasher) { bytes.withUnsafeBytes { h.combine(bytes: $0) } }
    }

    private static var shardCount: Int { 256 }
    private var shards: [[Key: Entry]] = Array(repeating: [:], count: KeyIndex.shardCount)

    init() {}

    private static func shard(_ key: Key) -> Int {
        var h = Hasher()
        key.bytes.withUnsafeBytes { h.combine(bytes: $0) }
        return h.finalize() & (shardCount - 1)
    }

    func holders(of bytes: [UInt8]) -> Holders {
        let key = Key(bytes: bytes)
        guard let e = shards[Self.shard(key)][key] else { return .none }
        return e.count == 1 && e.node != .max ? .one(e.node) : .several
    }


    mutating func insert(_ bytes: [UInt8], node: UInt32) {
        let key = Key(bytes: bytes)
        let s = Self.shard(key)
        if let e = shards[s][key] {
            shards[s][key] = Entry(count: e.count + 1, node: .max)
        } else {
            shards[s][key] = Entry(count: 1, node: node)
        }
    }

    mutating func remove(_ bytes: [UInt8], node: UInt32) {
        let key = Key(bytes: bytes)
        let s = Self.shard(key)
        guard let e = shards[s][key] else { preconditionFailure("KeyIndex.remove of a key not held") }
        if e.count == 1 {
            shards[s][key] = nil
        } else {
            // The other holder is not recorded; `.several` sends the caller to a scan.
            shards[s][key] = Entry(count: e.count - 1, node: .max)
        }
    }

    /// Every key with its holders, for tests comparing an index kept by writes with a rebuilt one.
    var snapshot: [[UInt8]: Holders] {
        var out: [[UInt8]: Holders] = [:]
        for shard in shards {
            for (k, e) in shard { out[k.bytes] = e.count == 1 && e.node != .max ? .one(e.node) : .several }
        }
        return out
    }
}
