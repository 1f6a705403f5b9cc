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
    package static func join(welcome: Welcome, keyPackage bundle: KeyPackageBundle, ratchetTree: RatchetTree? = nil) throws -> MLSGroupState {
        try join(welcome: welcome, keyPackage: bundle, ratchetTree: ratchetTree, pskSecret: noPSKs)
    }

    /// ``join(welcome:keyPackage:ratchetTree:)`` with a `psk_secret` (RFC 9420 §8.4) for a
    /// Welcome that names PSKs: for the conformance vectors only, which supply it; the Marmot
    /// profile has none.
    package static func join(welcome: Welcome, keyPackage bundle: KeyPackageBundle, ratchetTree: RatchetTree?,
                             pskSecret: (_ ids: [PreSharedKeyID], _ suite: CipherSuite) throws -> SecureBytes) throws -> MLSGroupState {
        let opening = try openWelcome(welcome, keyPackage: bundle, pskSecret: pskSecret)
        if opening.inlineTree == nil, ratchetTree == nil, opening.treeIsOutOfBand {
            throw MLSError(.treeChunksMissing, "the Welcome's ratchet tree is out of band; fetch its chunk events (PROTOCOL §5.11)")
        }
        return try join(opening, ratchetTree: ratchetTree)
    }

    /// The first half of a join (RFC 9420 §12.4.3.1): finds this KeyPackage's entry, decrypts its
    /// GroupSecrets and the GroupInfo, and reads how the tree is conveyed. Nothing is consumed; a
    /// Welcome whose tree is out of band (PROTOCOL §5.11) is completed with
    /// ``join(_:ratchetTree:)`` once its chunks are in (``MLSWelcomeOpening/openTreeChunks(_:treeLength:)``).
    package static func openWelcome(_ welcome: Welcome, keyPackage bundle: KeyPackageBundle) throws -> MLSWelcomeOpening {
        try openWelcome(welcome, keyPackage: bundle, pskSecret: noPSKs)
    }

    /// The Marmot profile's PSK rule: a Welcome that names any is refused.
    static func noPSKs(_ ids: [PreSharedKeyID], _ suite: CipherSuite) throws -> SecureBytes {
        throw MLSError(.unsupportedFeature, "PSKs in a Welcome (outside the Marmot profile)")
    }

    static func openWelcome(_ welcome: Welcome, keyPackage bundle: KeyPackageBundle,
                            pskSecret: (_ ids: [PreSharedKeyID], _ suite: CipherSuite) throws -> SecureBytes) throws -> MLSWelcomeOpening {
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
        let pskSecret: SecureBytes? = secrets.psks.isEmpty ? nil
            : try pskSecret(secrets.psks, suite)

        let schedule = try KeySchedule.fromJoinerSecret(secrets.joinerSecret, pskSecret: pskSecret, groupContext: [], suite: suite)
        let groupInfo = try openGroupInfo(welcome: welcome, welcomeSecret: schedule.welcomeSecret)
        let context = groupInfo.groupContext
        guard context.version == .mls10, context.cipherSuite == suite else {
            throw MLSError(.invalidValue, "GroupContext version or cipher suite differs from the Welcome's")
        }
        var inlineTree: RatchetTree?
        if let ext = groupInfo.extension(RatchetTreeExtension.extensionType) {
            do { inlineTree = try RatchetTree(tlsSerialized: ext.data) } catch { throw MLSError(.invalidTree, "malformed ratchet_tree extension") }
        }
        var option: RatchetTreeOption?
        if let ext = groupInfo.extension(RatchetTreeOption.extensionType) {
            do { option = try RatchetTreeOption(tlsSerialized: ext.data) } catch { throw MLSError(.invalidWelcome, "malformed RatchetTreeOption") }
        }
        return MLSWelcomeOpening(bundle: bundle, secrets: secrets, pskSecret: pskSecret, welcomeSecret: schedule.welcomeSecret,
                                 groupInfo: groupInfo, inlineTree: inlineTree, treeOption: option)
    }

    /// The second half of a join: the tree (inline, or `ratchetTree`) validates and hashes to the
    /// GroupContext's tree hash; the GroupInfo signature (and, for an out-of-band tree, the
    /// `tree_signature`) verifies under the signer's leaf; this member's leaf is in it; the path
    /// secret's keys match the tree; the confirmation tag verifies.
    package static func join(_ opening: MLSWelcomeOpening, ratchetTree: RatchetTree? = nil) throws -> MLSGroupState {
        let kp = opening.bundle.keyPackage
        let groupInfo = opening.groupInfo, secrets = opening.secrets, pskSecret = opening.pskSecret
        let context = groupInfo.groupContext
        let suite = context.cipherSuite

        let tree: RatchetTree
        if let inline = opening.inlineTree {
            tree = inline
        } else if let ratchetTree {
            tree = ratchetTree
        } else {
            throw MLSError(.invalidTree, "no ratchet tree in the Welcome and none given")
        }
        guard let signerLeaf = tree.leaf(groupInfo.signer) else { throw MLSError(.invalidSender, "GroupInfo signer is not a member") }
        try groupInfo.verifySignature(publicKey: signerLeaf.signatureKey)
        if opening.inlineTree == nil, case let .outOfBand(signature)? = opening.treeOption {
            let tbs = RatchetTreeOption.treeTBS(groupID: context.groupID, epoch: context.epoch, treeHash: context.treeHash)
            guard MLSCrypto.verifyWithLabel(publicKey: signerLeaf.signatureKey, label: RatchetTreeOption.signatureLabel, content: tbs,
                                            signature: signature) else {
                throw MLSError(.invalidSignature, "tree_signature does not verify")
            }
        }
        try tree.validate(suite: suite, groupID: context.groupID, expectedTreeHash: context.treeHash)
        let profile = try MarmotWireProfile.of(groupContextExtensions: context.extensions)
        try MarmotLeafRule.checkAll(tree.occupiedLeaves.map { ($0, tree.leaf($0)!) }, profile: profile, suite: suite)
        try MarmotLeafRule.checkSupport(tree.occupiedLeaves, in: tree, groupContextExtensions: context.extensions, profile: profile)

        guard let own = tree.occupiedLeaves.first(where: { tree.leaf($0) == kp.leafNode }) else {
            throw MLSError(.notFound, "this KeyPackage's leaf is not in the tree")
        }
        if let required = context.extension(RequiredCapabilities.extensionType) {
            let caps = try RequiredCapabilities(tlsSerialized: required.data)
            guard caps.isSatisfied(by: kp.leafNode.capabilities) else {
                throw MLSError(.invalidValue, "the KeyPackage lacks a required capability")
            }
            // Every leaf must meet them too (RFC 9420 §7.3, as §12.4.3.1 asks); commits then
            // check only the leaves they add or update.
            for i in tree.occupiedLeaves {
                guard let leaf = tree.leaf(i), caps.isSatisfied(by: leaf.capabilities) else {
                    throw MLSError(.invalidValue, "leaf \(i) lacks a required capability")
                }
            }
        }

        var privateTree = TreePrivateState(leafIndex: own, leafKey: opening.bundle.encryptionPrivateKey)
        if let pathSecret = secrets.pathSecret {
            try privateTree.applyWelcomePathSecret(pathSecret.secret, committer: groupInfo.signer, tree: tree)
        }

        let epochSecrets = try KeySchedule.fromJoinerSecret(secrets.joinerSecret, pskSecret: pskSecret, groupContext: context.tlsSerialized,
                                                            suite: suite)
        try verifyConfirmationTag(groupInfo.confirmationTag, key: epochSecrets.confirmationKey, confirmed: context.confirmedTranscriptHash)
        let interim = TranscriptHashes.interim(confirmed: context.confirmedTranscriptHash, confirmationTag: groupInfo.confirmationTag)
        let secretTree = try SecretTree(encryptionSecret: epochSecrets.encryptionSecret, leafCount: tree.leafCount, suite: suite)
        var state = MLSGroupState(groupContext: context, tree: tree, signatureKey: opening.bundle.signaturePrivateKey,
                             privateTree: privateTree, epochSecrets: epochSecrets, interimTranscriptHash: interim, secretTree: secretTree,
                             retainedEpochs: [], proposalCache: [])
        state.welcomeSigner = groupInfo.signer
        return state
    }

    /// Decrypts a Welcome's GroupInfo with `welcome_key`/`welcome_nonce` (RFC 9420 §12.4.3.1).
    package static func openGroupInfo(welcome: Welcome, joinerSecret: SecureBytes, pskSecret: SecureBytes? = nil) throws -> GroupInfo {
        let schedule = try KeySchedule.fromJoinerSecret(joinerSecret, pskSecret: pskSecret, groupContext: [], suite: welcome.cipherSuite)
        return try openGroupInfo(welcome: welcome, welcomeSecret: schedule.welcomeSecret)
    }

    /// As ``openGroupInfo(welcome:joinerSecret:pskSecret:)`` from the `welcome_secret`.
    package static func openGroupInfo(welcome: Welcome, welcomeSecret: SecureBytes) throws -> GroupInfo {
        let suite = welcome.cipherSuite
        let (key, nonce) = try KeySchedule.welcomeKeyAndNonce(welcomeSecret: welcomeSecret, suite: suite)
        let aead = try suite.hpke().aead
        var plain = try aead.open(welcome.encryptedGroupInfo, key: key, nonce: nonce.exportBytes(), aad: [])
        defer { zeroize(&plain) }
        do { return try GroupInfo(tlsSerialized: plain) } catch { throw MLSError(.invalidValue, "malformed GroupInfo") }
    }

    /// Checks `MAC(confirmation_key, confirmed_transcript_hash)` in constant time (RFC 9420 §8.1).
    package static func verifyConfirmationTag(_ tag: [UInt8], key: SecureBytes, confirmed: [UInt8]) throws {
        let expected = HMACSHA256.authenticate(confirmed, key: key)
        guard ConstantTime.equals(expected, tag) else { throw MLSError(.invalidConfirmationTag, "confirmation tag does not verify") }
    }
}
