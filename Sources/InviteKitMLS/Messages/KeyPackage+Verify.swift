import InviteKitCrypto

extension KeyPackage {
    /// `KeyPackageRef` = RefHash("MLS 1.0 KeyPackage Reference", KeyPackage) (RFC 9420 §5.2).
    package var reference: [UInt8] { MLSCrypto.keyPackageRef(self) }

    /// Checks a KeyPackage as RFC 9420 §10.1 asks of a receiver, for suites 0x0001/0x0003:
    /// supported suite and version, `key_package` leaf source, both signatures, distinct
    /// `init_key` and `encryption_key`, and capabilities that cover the suite, version and
    /// credential. Lifetime is checked separately (by ``KeyPackageValidator``, PROTOCOL.md §4.4),
    /// because the caller owns the clock.
    package func verify() throws {
        guard version == .mls10 else { throw MLSError(.invalidValue, "protocol version \(version.rawValue)") }
        guard cipherSuite.isSupported else { throw MLSError(.unsupportedCipherSuite, cipherSuite.description) }
        guard case .keyPackage = leafNode.source else { throw MLSError(.invalidValue, "leaf_node_source is not key_package") }
        guard initKey.count == 32, leafNode.encryptionKey.count == 32 else { throw MLSError(.invalidKey, "X25519 keys must be 32 bytes") }
        guard leafNode.signatureKey.count == 32 else { throw MLSError(.invalidKey, "Ed25519 key must be 32 bytes") }
        guard initKey != leafNode.encryptionKey else { throw MLSError(.invalidValue, "init_key equals encryption_key") }
        let caps = leafNode.capabilities
        guard caps.cipherSuites.contains(cipherSuite.rawValue) else { throw MLSError(.invalidValue, "capabilities lack the cipher suite") }
        guard caps.versions.contains(version.rawValue) else { throw MLSError(.invalidValue, "capabilities lack the version") }
        guard caps.credentials.contains(leafNode.credential.credentialType) else {
            throw MLSError(.invalidValue, "capabilities lack the credential type")
        }
        guard MLSCrypto.verifyWithLabel(publicKey: leafNode.signatureKey, label: "LeafNodeTBS", content: leafNode.tbs,
                                        signature: leafNode.signature) else {
            throw MLSError(.invalidSignature, "LeafNode signature")
        }
        guard MLSCrypto.verifyWithLabel(publicKey: leafNode.signatureKey, label: "KeyPackageTBS", content: tbs,
                                        signature: signature) else {
            throw MLSError(.invalidSignature, "KeyPackage signature")
        }
    }
}
