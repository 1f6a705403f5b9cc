/// Key lookups through the tree's key indexes (RFC 9420 §7.3: encryption keys are unique across
/// the tree, signature keys across leaves), in O(1) instead of a pass over every node.
extension RatchetTree {
    /// The nodes whose encryption key is `key`, ascending.
    func nodes(holdingEncryptionKey key: [UInt8]) -> [UInt32] {
        switch keyIndex.holders(of: key, in: .encryption) {
        case .none: return []
        case .one(let x): return [x]
        case .several: return (0..<UInt32(storage.count)).filter { storage[Int($0)]?.encryptionKey == key }
        }
    }

    /// The node indices of the leaves whose signature key is `key`, ascending.
    func nodes(holdingSignatureKey key: [UInt8]) -> [UInt32] {
        switch keyIndex.holders(of: key, in: .signature) {
        case .none: return []
        case .one(let x): return [x]
        case .several: return (0..<UInt32(storage.count)).filter { storage[Int($0)]?.leafNode?.signatureKey == key }
        }
    }

    /// The key index's entries, for tests comparing the one the mutations keep with a rebuilt one.
    var keyIndexEntries: [String: [UInt32]] { keyIndex.entries }
}
