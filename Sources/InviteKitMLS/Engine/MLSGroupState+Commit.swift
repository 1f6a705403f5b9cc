import InviteKitCrypto

extension MLSGroupState {
    /// Creates a commit (RFC 9420 §12.4.1) with `actions` inline and `references` (proposals
    /// received this epoch, e.g. SelfRemove) by reference. It carries an UpdatePath (which also
    /// makes an empty commit a self-update) unless `includeUpdatePath` is `false` and the proposals
    /// do not need one (adds only, RFC 9420 §12.4); then the commit secret is all zero (RFC 9420
    /// §8) and nobody's keys change. Nothing changes until ``merge(_:)``.
    ///
    /// - Parameter wireFormat: `.privateMessage` (default) or `.publicMessage`.
    package func commit(_ actions: [MLSProposalAction], references: [[UInt8]] = [], wireFormat: WireFormat = .privateMessage,
                       authenticatedData: [UInt8] = [], welcomeTree: WelcomeTreePolicy = .inline, includeUpdatePath: Bool = true,
                       rng: RandomSource = SystemRandom()) throws -> MLSPendingCommit {
        guard !isRemoved else { throw MLSError(.notMember, "this member was removed from the group") }
        let me = ownLeaf
        var items: [ProposalOrRef] = []
        for a in actions {
            switch a {
            case .add(let kp): items.append(.proposal(.add(kp)))
            case .remove(let leaf): items.append(.proposal(.remove(leaf)))
            case .groupContextExtensions(let exts): items.append(.proposal(.groupContextExtensions(exts)))
            case .appDataUpdate(let u): items.append(.proposal(.appDataUpdate(u)))
            }
        }
        items += references.map { .reference($0) }
        let resolved = try resolve(Commit(proposals: items, path: nil), committer: me)
        let applied = try AppliedProposals(proposals: resolved, committer: me, tree: tree, context: groupContext)

        var provisional = groupContext
        provisional.epoch += 1
        provisional.extensions = applied.extensions
        let newTree: RatchetTree
        var newPrivate = privateTree
        var commitSecret = SecureBytes(zeroedCount: cipherSuite.hashLength)
        var path: UpdatePath?
        var pending: PendingUpdatePath?
        if includeUpdatePath || applied.pathRequired || actions.isEmpty && references.isEmpty {
            let prepared = try TreeKEM.preparePath(tree: applied.tree, leafIndex: me, suite: cipherSuite, groupID: groupID,
                                                   signingKey: signatureKey, rng: rng)
            provisional.treeHash = prepared.tree.treeHash
            path = try prepared.updatePath(groupContext: provisional.tlsSerialized, excludingAdded: Set(applied.added.map(\.leaf)), rng: rng)
            newTree = prepared.tree
            newPrivate = prepared.privateState
            commitSecret = prepared.commitSecret
            pending = prepared
        } else {
            // As a receiver applies a commit without a path (MLSGroupState+Process).
            newTree = applied.tree
            provisional.treeHash = newTree.treeHash
            newPrivate.prune(against: newTree)
        }
        let commit = Commit(proposals: items, path: path)

        let oldContext = groupContext.tlsSerialized
        let content = FramedContent(groupID: groupID, epoch: epoch, sender: .member(leafIndex: me), authenticatedData: authenticatedData,
                                    body: .commit(commit.tlsSerialized))
        var authenticated = AuthenticatedContent.sign(wireFormat: wireFormat, content: content, signer: signatureKey, groupContext: oldContext)
        let confirmed = try TranscriptHashes.confirmed(interimBefore: interimTranscriptHash, authenticatedContent: authenticated)
        var context = provisional
        context.confirmedTranscriptHash = confirmed
        let secrets = try KeySchedule.nextEpoch(initSecret: epochSecrets.initSecret, commitSecret: commitSecret,
                                                groupContext: context.tlsSerialized, suite: cipherSuite)
        let tag = HMACSHA256.authenticate(confirmed, key: secrets.confirmationKey)
        authenticated.auth.confirmationTag = tag

        var next = self
        let framed: MLSFramedMessage
        if wireFormat == .privateMessage {
            framed = .privateMessage(try PrivateMessage.protect(authenticated, secretTree: &next.secretTree,
                                                                senderDataSecret: epochSecrets.senderDataSecret, rng: rng))
        } else if wireFormat == .publicMessage {
            framed = .publicMessage(try PublicMessage.protect(authenticated, membershipKey: epochSecrets.membershipKey, groupContext: oldContext))
        } else {
            throw MLSError(.invalidValue, "commits are sent as PublicMessage or PrivateMessage")
        }

        next.retainEpoch()
        next.groupContext = context
        next.tree = newTree
        next.privateTree = newPrivate
        next.epochSecrets = secrets
        next.interimTranscriptHash = TranscriptHashes.interim(confirmed: confirmed, confirmationTag: tag)
        next.secretTree = try SecretTree(encryptionSecret: secrets.encryptionSecret, leafCount: newTree.leafCount, suite: cipherSuite)
        next.proposalCache = []

        var welcome: Welcome?
        if !applied.added.isEmpty {
            welcome = try next.makeWelcome(confirmationTag: tag, joiners: applied.added.map { ($0.keyPackage, pending?.pathSecret(forJoiner: $0.leaf)) },
                                           welcomeTree: welcomeTree, rng: rng)
        }
        return MLSPendingCommit(message: framed.tlsSerialized, welcome: welcome.map { MLSMessage(.welcome($0)).tlsSerialized },
                                welcomeValue: welcome, fromEpoch: epoch, next: next, added: applied.added, removed: applied.removed)
    }

    /// Adopts a commit this member created, once the delivery service accepted it.
    public mutating func merge(_ pending: MLSPendingCommit) throws {
        guard pending.fromEpoch == epoch, pending.next.groupID == groupID else {
            throw MLSError(.wrongEpoch, "pending commit was made at epoch \(pending.fromEpoch), the group is at \(epoch)")
        }
        self = pending.next
    }

    /// The Welcome for a commit's new members (RFC 9420 §12.4.3.1): a GroupInfo carrying the
    /// `ratchet_tree` extension, signed by this member and sealed with the welcome key, and for
    /// each joiner its GroupSecrets sealed to its init key.
    func makeWelcome(confirmationTag: [UInt8], joiners: [(KeyPackage, SecureBytes?)], welcomeTree: WelcomeTreePolicy = .inline,
                     rng: RandomSource) throws -> Welcome {
        var info = GroupInfo(groupContext: groupContext, extensions: welcomeGroupInfoExtensions(welcomeTree),
                             confirmationTag: confirmationTag, signer: ownLeaf, signature: [])
        info.sign(with: signatureKey)
        let (key, nonce) = try KeySchedule.welcomeKeyAndNonce(welcomeSecret: epochSecrets.welcomeSecret, suite: cipherSuite)
        let encryptedInfo = try cipherSuite.hpke().aead.seal(info.tlsSerialized, key: key, nonce: nonce.exportBytes(), aad: [])
        let secrets = try joiners.map { kp, pathSecret -> EncryptedGroupSecrets in
            let gs = GroupSecrets(joinerSecret: epochSecrets.joinerSecret, pathSecret: pathSecret.map(PathSecret.init))
            let sealed = try MLSCrypto.encryptWithLabel(suite: cipherSuite, publicKey: kp.initKey, label: "Welcome", context: encryptedInfo,
                                                        plaintext: gs.secureSerialization, rng: rng)
            return EncryptedGroupSecrets(newMember: kp.reference, encryptedGroupSecrets: sealed)
        }
        return Welcome(cipherSuite: cipherSuite, secrets: secrets, encryptedGroupInfo: encryptedInfo)
    }
}
