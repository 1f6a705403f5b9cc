import InviteKitCrypto

/// Signing and verifying a LeafNode over its `LeafNodeTBS` (RFC 9420 §7.2).
extension LeafNode {
    /// `LeafNodeTBS` for this leaf. `groupID` and `leafIndex` are part of it only for the
    /// `update` and `commit` sources, which bind a leaf to its place in one group.
    func tbs(groupID: [UInt8], leafIndex: UInt32) -> [UInt8] {
        var w = TLSWriter()
        encodeTBS(to: &w, groupID: groupID, leafIndex: leafIndex)
        return w.bytes
    }

    /// Sets ``signature`` to `SignWithLabel(key, "LeafNodeTBS", LeafNodeTBS)` (RFC 9420 §7.2).
    /// `groupID` and `leafIndex` are ignored for a `key_package` leaf.
    package mutating func sign(with key: Ed25519.PrivateKey, groupID: [UInt8] = [], leafIndex: UInt32 = 0) {
        signature = MLSCrypto.signWithLabel(key, label: "LeafNodeTBS", content: tbs(groupID: groupID, leafIndex: leafIndex))
    }

    /// `true` when ``signature`` verifies under ``signatureKey`` (RFC 9420 §7.2, §7.3).
    package func verifySignature(groupID: [UInt8] = [], leafIndex: UInt32 = 0) -> Bool {
        MLSCrypto.verifyWithLabel(publicKey: signatureKey, label: "LeafNodeTBS",
                                  content: tbs(groupID: groupID, leafIndex: leafIndex), signature: signature)
    }
}
