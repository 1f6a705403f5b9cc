import InviteKitCrypto

extension MLSGroupState {
    /// Joins a group from a Welcome (RFC 9420 §12.4.3.1) with the private half of the KeyPackage
    /// it was made for.
    ///
    /// Checks, in order: an entry for this KeyPackage; no PSKs (the Marmot profile has none); the
    /// cipher suite and version; the GroupInfo decrypts and its signature verifies under the
    /// signer's leaf; the tree (from the `ratchet_tree` extension or `ratchetTree`) validates and
    /// hashes to the GroupContext's tree hash; this member's leaf is in it; the path secret's keys
    /// match the tree; the confirmation tag verifies.
    public static func join(welcome: Welcome, keyPackage bundle: KeyPackageBundle, ratchetTree: RatchetTree? = nil) throws -> MLSGroupState {
        let kp = bundle.keyPackage
        let suite = welcome.cipherSuite
        guard suite == kp.cipherSuite else { throw MLSError(.invalidValue, "Welcome cipher suite differs from the KeyPackage's") }
        guard suite.isSupported else { throw MLSError(.unsupportedCipherSuite, suite.description) }
        let ref = kp.reference
        guard let entry = welcome.secrets.first(where: { $0.newMember == ref }) else {
            throw MLSError(.notFound, "the Welcome has no entry for this KeyPackage")
        }
        var secretBytes = try MLSCrypto.decryptWithLabel(suite: suite, privateKey: bundle.initPrivateKey, label: "Welcome",
                                                         context: welcome.encryptedGroupInfo, ciphertext: entry.encryptedGroupSecrets)
        defer { zeroize(&secretBytes) }
        let secrets: GroupSecrets
        do { secrets = try GroupSecrets(tlsSerialized: secretBytes) } catch { throw MLSError(.invalidValue, "malformed GroupSecrets") }
        guard secrets.psks.isEmpty else { throw MLSError(.unsupportedFeature, "the Welcome needs pre-shared keys") }

        let groupInfo = try openGroupInfo(welcome: welcome, joinerSecret: secrets.joinerSecret)
        let context = groupInfo.groupContext
        guard context.version == .mls10, context.cipherSuite == suite else {
            throw MLSError(.invalidValue, "GroupContext version or cipher suite differs from the Welcome's")
        }

        let tree: RatchetTree
        if let ext = groupInfo.extension(RatchetTreeExtension.extensionType) {
            do { tree = try RatchetTree(tlsSerialized: ext.data) } catch { throw MLSError(.invalidTree, "malformed ratchet_tree extension") }
        } else if let ratchetTree {
            tree = ratchetTree
        } else {
            throw MLSError(.invalidTree, "no ratchet tree in the Welcome and none given")
        }
        guard let signerLeaf = tree.leaf(groupInfo.signer) else { throw MLSError(.invalidSender, "GroupInfo signer is not a member") }
        try groupInfo.verifySignature(publicKey: signerLeaf.signatureKey)
        try tree.validate(suite: suite, groupID: context.groupID, expectedTreeHash: context.treeHash)

        guard let own = tree.occupiedLeaves.first(where: { tree.leaf($0) == kp.leafNode }) else {
            throw MLSError(.notFound, "this KeyPackage's leaf is not in the tree")
        }
        if let required = context.extension(RequiredCapabilities.extensionType) {
            let caps = try RequiredCapabilities(tlsSerialized: required.data)
            guard caps.isSatisfied(by: kp.leafNode.capabilities) else {
                throw MLSError(.invalidValue, "the KeyPackage lacks a required capability")
            }
        }

        var privateTree = TreePrivateState(leafIndex: own, leafKey: bundle.encryptionPrivateKey)
        if let pathSecret = secrets.pathSecret {
            try privateTree.applyWelcomePathSecret(pathSecret.secret, committer: groupInfo.signer, tree: tree)
        }

        let epochSecrets = try KeySchedule.fromJoinerSecret(secrets.joinerSecret, groupContext: context.tlsSerialized, suite: suite)
        try verifyConfirmationTag(groupInfo.confirmationTag, key: epochSecrets.confirmationKey, confirmed: context.confirmedTranscriptHash)
        let interim = TranscriptHashes.interim(confirmed: context.confirmedTranscriptHash, confirmationTag: groupInfo.confirmationTag)
        let secretTree = try SecretTree(encryptionSecret: epochSecrets.encryptionSecret, leafCount: tree.leafCount, suite: suite)
        return MLSGroupState(groupContext: context, tree: tree, signatureKey: bundle.signaturePrivateKey,
                             privateTree: privateTree, epochSecrets: epochSecrets, interimTranscriptHash: interim, secretTree: secretTree,
                             retainedEpochs: [], proposalCache: [])
    }

    /// Decrypts a Welcome's GroupInfo with `welcome_key`/`welcome_nonce` (RFC 9420 §12.4.3.1).
    static func openGroupInfo(welcome: Welcome, joinerSecret: SecureBytes) throws -> GroupInfo {
        let suite = welcome.cipherSuite
        let schedule = try KeySchedule.fromJoinerSecret(joinerSecret, groupContext: [], suite: suite)
        let (key, nonce) = try KeySchedule.welcomeKeyAndNonce(welcomeSecret: schedule.welcomeSecret, suite: suite)
        let aead = try suite.hpke().aead
        var plain = try aead.open(welcome.encryptedGroupInfo, key: key, nonce: nonce.exportBytes(), aad: [])
        defer { zeroize(&plain) }
        do { return try GroupInfo(tlsSerialized: plain) } catch { throw MLSError(.invalidValue, "malformed GroupInfo") }
    }

    /// Checks `MAC(confirmation_key, confirmed_transcript_hash)` in constant time (RFC 9420 §8.1).
    static func verifyConfirmationTag(_ tag: [UInt8], key: SecureBytes, confirmed: [UInt8]) throws {
        let expected = HMACSHA256.authenticate(confirmed, key: key)
        guard ConstantTime.equals(expected, tag) else { throw MLSError(.invalidConfirmationTag, "confirmation tag does not verify") }
    }
}
