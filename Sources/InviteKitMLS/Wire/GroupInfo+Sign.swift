import InviteKitCrypto

extension GroupInfo {
    /// Signs `GroupInfoTBS` with `SignWithLabel(., "GroupInfoTBS", .)` (RFC 9420 §12.4.3).
    package mutating func sign(with key: Ed25519.PrivateKey) {
        signature = MLSCrypto.signWithLabel(key, label: "GroupInfoTBS", content: tbs)
    }

    /// Verifies the signature against the signer's leaf signature key (RFC 9420 §12.4.3.1).
    package func verifySignature(publicKey: [UInt8]) throws {
        guard MLSCrypto.verifyWithLabel(publicKey: publicKey, label: "GroupInfoTBS", content: tbs, signature: signature) else {
            throw MLSError(.invalidSignature, "GroupInfo signature")
        }
    }
}
