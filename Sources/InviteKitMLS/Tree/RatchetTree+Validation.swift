import Foundation

/// What a new member checks of the tree it receives (RFC 9420 §12.4.3.1, §7.3, §7.9.2).
extension RatchetTree {
    /// Validates a received tree as RFC 9420 §12.4.3.1 asks of a joiner:
    /// - the root tree hash equals `expectedTreeHash` (the GroupInfo's), when given;
    /// - every non-blank parent node is parent-hash valid (§7.9.2);
    /// - every leaf's signature verifies over `LeafNodeTBS`, bound to `groupID` and its leaf index
    ///   for the `update` and `commit` sources (§7.3);
    /// - every leaf supports the suite and the credential type of every other member (§7.3);
    /// - encryption keys are unique across the tree and signature keys across leaves (§7.3);
    /// - each unmerged leaf is a non-blank leaf below its parent, also listed by every non-blank
    ///   parent between the two (§7.1, §4.1.1).
    ///
    /// Lifetimes are not checked, as §12.4.3.1 allows.
    package func validate(suite: CipherSuite, groupID: [UInt8], expectedTreeHash: [UInt8]? = nil) throws {
        guard suite.isSupported else { throw MLSError(.unsupportedCipherSuite, suite.description) }
        if let expectedTreeHash, treeHash != expectedTreeHash {
            throw MLSError(.treeHashMismatch, "ratchet tree hash differs from the GroupInfo's")
        }
        try validateUnmergedLeaves()
        try validateLeaves(suite: suite, groupID: groupID)
        try verifyParentHashes()
    }

    func validateUnmergedLeaves() throws {
        for i in stride(from: UInt32(1), to: UInt32(storage.count), by: 2) {
            guard let p = parentNode(i) else { continue }
            var previous: UInt32?
            for l in p.unmergedLeaves {
                if let previous, l <= previous { throw MLSError(.invalidTree, "unmerged_leaves of node \(i) not ascending") }
                previous = l
                guard l < leafCount, TreeMath.contains(i, leaf: l) else {
                    throw MLSError(.invalidTree, "unmerged leaf \(l) is not below node \(i)")
                }
                guard leaf(l) != nil else { throw MLSError(.invalidTree, "unmerged leaf \(l) of node \(i) is blank") }
                for q in directPath(leaf: l) {
                    if q == i { break }
                    // Binary search keeps hostile trees with long lists near-linear; an unsorted
                    // list is rejected when its own node is checked.
                    if let between = parentNode(q), !Self.sortedContains(between.unmergedLeaves, l) {
                        throw MLSError(.invalidTree, "unmerged leaf \(l) of node \(i) missing from node \(q)")
                    }
                }
            }
        }
    }

    static func sortedContains(_ list: [UInt32], _ value: UInt32) -> Bool {
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid] < value { lo = mid + 1 } else { hi = mid }
        }
        return lo < list.count && list[lo] == value
    }

    func validateLeaves(suite: CipherSuite, groupID: [UInt8]) throws {
        var encryptionKeys = Set<[UInt8]>(), signatureKeys = Set<[UInt8]>()
        for case let p? in storage {
            guard let parent = p.parentNode else { continue }
            guard encryptionKeys.insert(parent.encryptionKey).inserted else {
                throw MLSError(.invalidTree, "encryption key used by two nodes")
            }
        }
        let leaves = occupiedLeaves.map { ($0, leaf($0)!) }
        let credentialTypes = Set(leaves.map { $0.1.credential.credentialType })
        let signed = Self.verifySignatures(leaves, groupID: groupID)
        for (k, (index, l)) in leaves.enumerated() {
            guard signed[k] else {
                throw MLSError(.invalidSignature, "LeafNode signature of leaf \(index)")
            }
            guard encryptionKeys.insert(l.encryptionKey).inserted else {
                throw MLSError(.invalidTree, "encryption key of leaf \(index) used by another node")
            }
            guard signatureKeys.insert(l.signatureKey).inserted else {
                throw MLSError(.invalidTree, "signature key of leaf \(index) used by another leaf")
            }
            guard l.capabilities.cipherSuites.contains(suite.rawValue) else {
                throw MLSError(.invalidValue, "leaf \(index) does not support cipher suite \(suite)")
            }
            guard credentialTypes.allSatisfy({ l.capabilities.credentials.contains($0) }) else {
                throw MLSError(.invalidValue, "leaf \(index) does not support every member's credential type")
            }
        }
    }

    /// Every leaf's signature (RFC 9420 §7.3), each one verified, spread over the cores: one
    /// Ed25519 verification per leaf is most of a large Welcome. The checks that follow read the
    /// results in leaf order, so the first failing leaf is reported as before.
    static func verifySignatures(_ leaves: [(UInt32, LeafNode)], groupID: [UInt8]) -> [Bool] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        guard leaves.count >= 64, cores > 1 else {
            return leaves.map { $0.1.verifySignature(groupID: groupID, leafIndex: $0.0) }
        }
        var out = [Bool](repeating: false, count: leaves.count)
        let chunks = cores * 4
        out.withUnsafeMutableBufferPointer { buffer in
            let results = UnsafeSendableBuffer(buffer)
            DispatchQueue.concurrentPerform(iterations: chunks) { c in
                var k = c * leaves.count / chunks
                let end = (c + 1) * leaves.count / chunks
                while k < end {
                    results.buffer[k] = leaves[k].1.verifySignature(groupID: groupID, leafIndex: leaves[k].0)
                    k += 1
                }
            }
        }
        return out
    }
}
