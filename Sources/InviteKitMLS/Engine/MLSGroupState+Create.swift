import InviteKitCrypto

extension MLSGroupState {
    /// Creates a one-member group at epoch 0 (RFC 9420 §11) whose only leaf is the creator's
    /// KeyPackage leaf. `extensions` become the GroupContext extensions: Marmot passes
    /// `required_capabilities` (see ``RequiredCapabilities``) and its group data extension
    /// (0xf2ee) as opaque bytes.
    public static func create(groupID: [UInt8], creator bundle: KeyPackageBundle, extensions: [MLSExtension],
                              rng: RandomSource = SystemRandom()) throws -> MLSGroupState {
        let suite = bundle.keyPackage.cipherSuite
        guard suite.isSupported else { throw MLSError(.unsupportedCipherSuite, suite.description) }
        guard !groupID.isEmpty else { throw MLSError(.invalidValue, "empty group id") }
        var seen = Set<UInt16>()
        for e in extensions { guard seen.insert(e.extensionType).inserted else { throw MLSError(.invalidValue, "duplicate extension \(e.extensionType)") } }
        let leaf = bundle.keyPackage.leafNode
        if let raw = extensions.first(where: { $0.extensionType == RequiredCapabilities.extensionType }) {
            guard try RequiredCapabilities(tlsSerialized: raw.data).isSatisfied(by: leaf.capabilities) else {
                throw MLSError(.invalidValue, "the creator's leaf lacks a required capability")
            }
        }
        try MarmotLeafRule.check(leaf, profile: try MarmotWireProfile.of(groupContextExtensions: extensions), suite: suite)
        let tree = RatchetTree(firstLeaf: leaf)
        let context = GroupContext(cipherSuite: suite, groupID: groupID, epoch: 0, treeHash: tree.treeHash,
                                   confirmedTranscriptHash: [], extensions: extensions)
        let initSecret = KeySchedule.randomInitSecret(suite: suite, rng: rng)
        let secrets = try KeySchedule.nextEpoch(initSecret: initSecret, commitSecret: SecureBytes(zeroedCount: suite.hashLength),
                                                groupContext: context.tlsSerialized, suite: suite)
        // RFC 9420 §8.2: epoch 0's interim transcript hash covers the confirmation tag over an
        // empty confirmed transcript hash.
        let tag = HMACSHA256.authenticate([UInt8](), key: secrets.confirmationKey)
        return MLSGroupState(groupContext: context, tree: tree, signatureKey: bundle.signaturePrivateKey,
                             privateTree: TreePrivateState(leafIndex: 0, leafKey: bundle.encryptionPrivateKey),
                             epochSecrets: secrets, interimTranscriptHash: TranscriptHashes.interim(confirmed: [], confirmationTag: tag),
                             secretTree: try SecretTree(encryptionSecret: secrets.encryptionSecret, leafCount: tree.leafCount, suite: suite),
                             retainedEpochs: [], proposalCache: [])
    }
}
