import InviteKitCrypto

extension MLSGroupState {
    /// The states of all members of a `members.count`-member group, built directly rather than by
    /// commits, for benchmarks and tests of large groups (`invitekit bench --filter group-scale`).
    ///
    /// Member `i` sits at leaf `i`; `members[0]` is the usual creator. The tree is fully populated
    /// (see `RatchetTree.populated`): every parent node with members on both sides holds a key
    /// that every member below it knows, as in a group whose members have all committed, so that
    /// commits encrypt to one node per level (RFC 9420 §7.6). The group is at epoch 1 with a random
    /// confirmed transcript hash; all members share its epoch secrets, derived from a random
    /// `init_secret` (RFC 9420 §8). From there the states commit, process and welcome like any
    /// other, and the tree passes the checks a joiner makes (RFC 9420 §12.4.3.1).
    package static func bulk(groupID: [UInt8], members: [KeyPackageBundle], extensions: [MLSExtension],
                             rng: RandomSource = SystemRandom()) throws -> [MLSGroupState] {
        guard let suite = members.first?.keyPackage.cipherSuite else { throw MLSError(.invalidValue, "no members") }
        guard suite.isSupported else { throw MLSError(.unsupportedCipherSuite, suite.description) }
        guard members.allSatisfy({ $0.keyPackage.cipherSuite == suite }) else {
            throw MLSError(.invalidValue, "members of different cipher suites")
        }
        guard !groupID.isEmpty else { throw MLSError(.invalidValue, "empty group id") }
        let (tree, parentKeys) = try RatchetTree.populated(leaves: members.map(\.keyPackage.leafNode),
                                                           signingKeys: members.map(\.signaturePrivateKey), groupID: groupID, rng: rng)
        let context = GroupContext(cipherSuite: suite, groupID: groupID, epoch: 1, treeHash: tree.treeHash,
                                   confirmedTranscriptHash: rng.bytes(suite.hashLength), extensions: extensions)
        let secrets = try KeySchedule.nextEpoch(initSecret: KeySchedule.randomInitSecret(suite: suite, rng: rng),
                                                commitSecret: SecureBytes(zeroedCount: suite.hashLength),
                                                groupContext: context.tlsSerialized, suite: suite)
        let tag = HMACSHA256.authenticate(context.confirmedTranscriptHash, key: secrets.confirmationKey)
        let interim = TranscriptHashes.interim(confirmed: context.confirmedTranscriptHash, confirmationTag: tag)
        let secretTree = try SecretTree(encryptionSecret: secrets.encryptionSecret, leafCount: tree.leafCount, suite: suite)
        return members.indices.map { i in
            let leaf = UInt32(i)
            var pathKeys: [UInt32: X25519.PrivateKey] = [:]
            for x in tree.directPath(leaf: leaf) { pathKeys[x] = parentKeys[x] }
            return MLSGroupState(groupContext: context, tree: tree, signatureKey: members[i].signaturePrivateKey,
                                 privateTree: TreePrivateState(leafIndex: leaf, leafKey: members[i].encryptionPrivateKey, pathKeys: pathKeys),
                                 epochSecrets: secrets, interimTranscriptHash: interim, secretTree: secretTree,
                                 retainedEpochs: [], proposalCache: [])
        }
    }
}
