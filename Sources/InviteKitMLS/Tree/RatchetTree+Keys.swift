/// Key lookups through the tree's key indexes (RFC 9420 §7.3: encryption keys are unique across
/// the tree, signature keys across leaves), in O(1) instead of a pass over every node.
extension RatchetTree {
    /// The nodes whose encryption key is `key`, ascending.
    func nodes(holdingEncryptionKey key: [UInt8]) -> [UInt32] {
        switch encryptionKeyIndex.holders(of: key) {
        case .none: return []
        case .one(let x): return [x]
        case .several: return (0..<UInt32(storage.count)).filter { storage[Int($0)]?.encryptionKey == key }
        }
    }

    /// The node indices of the leaves whose signature key is `key`, ascending.
    func nodes(holdingSignatureKey key: [UInt8]) -> [UInt32] {
        switch signatureKeyIndex.holders(of: key) {
        case .none: return []
        case .one(let x): return [x]
        case .several: return (0..<UInt32(storage.count)).filter { storage[Int($0)]?.leafNode?.signatureKey == key }
        }
    }

    /// Both key indexes, for tests comparing those the mutations keep with rebuilt ones.
    var keyIndexSnapshot: (encryption: [[UInt8]: KeyIndex.Holders], signature: [[UInt8]: KeyIndex.Holders]) {
        (encryptionKeyIndex.snapshot, signatureKeyIndex.snapshot)
    }
}
