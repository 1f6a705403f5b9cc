import InviteKitCrypto

extension MLSGroupState {
    /// Processes one serialized MLSMessage carrying a PublicMessage or PrivateMessage
    /// (RFC 9420 §6, §12.4.2). On error the state is unchanged.
    ///
    /// Application messages of the last ``retainedEpochLimit`` epochs still decrypt; handshake
    /// messages must be for the current epoch. Only members may send (external senders and new
    /// member commits are outside the Marmot profile).
    package mutating func process(_ bytes: [UInt8]) throws -> MLSProcessOutcome {
        guard !isRemoved else { throw MLSError(.notMember, "this member was removed from the group") }
        let framed = try MLSFramedMessage(tlsSerialized: bytes, parser: .standard)
        var next = self
        let outcome = try next.process(framed)
        self = next
        return outcome
    }

    mutating func process(_ framed: MLSFramedMessage) throws -> MLSProcessOutcome {
        let contextBytes = groupContext.tlsSerialized
        let authenticated: AuthenticatedContent
        switch framed {
        case .publicMessage(let m):
            guard m.content.epoch == epoch else { throw MLSError(.wrongEpoch, "PublicMessage for epoch \(m.content.epoch), at \(epoch)") }
            authenticated = try m.unprotect(groupID: groupID, epoch: epoch, membershipKey: epochSecrets.membershipKey, groupContext: contextBytes)
        case .privateMessage(let m):
            if m.epoch != epoch {
                return try processPastEpoch(m)
            }
            authenticated = try m.unprotect(groupID: groupID, epoch: epoch, secretTree: &secretTree,
                                            senderDataSecret: epochSecrets.senderDataSecret)
        }
        guard case .member(let sender) = authenticated.content.sender else {
            throw MLSError(.unsupportedFeature, "sender type other than member (external senders and external commits are outside the Marmot profile)")
        }
        guard let senderLeaf = tree.leaf(sender) else { throw MLSError(.invalidSender, "sender leaf \(sender) is not a member") }
        try authenticated.verifySignature(publicKey: senderLeaf.signatureKey, groupContext: contextBytes)

        switch authenticated.content.body {
        case .application(let data):
            guard case .privateMessage = framed else { throw MLSError(.invalidValue, "application data in a PublicMessage") }
            return .application(sender: sender, identity: senderLeaf.credential.identity, data: data,
                                authenticatedData: authenticated.content.authenticatedData, epoch: epoch)
        case .proposal(let body):
            let proposal = try Proposal(tlsSerialized: body)
            let reference = ProposalOrRef.makeReference(authenticatedContent: authenticated.tlsSerialized)
            proposalCache.append(CachedProposal(reference: reference, proposal: proposal, sender: sender))
            return .proposal(reference: reference, proposal: proposal, sender: sender)
        case .commit(let body):
            guard sender != ownLeaf else {
                throw MLSError(.invalidSender, "own commit: merge the pending commit instead")
            }
            let commit: Commit
            do { commit = try Commit(tlsSerialized: body) } catch { throw MLSError(.invalidCommit, "malformed Commit") }
            return try applyCommit(commit, authenticated: authenticated, committer: sender)
        }
    }

    /// A late application message of a retained epoch.
    mutating func processPastEpoch(_ m: PrivateMessage) throws -> MLSProcessOutcome {
        guard let i = retainedEpochs.firstIndex(where: { $0.groupContext.epoch == m.epoch }) else {
            throw MLSError(.wrongEpoch, "PrivateMessage for epoch \(m.epoch), which is not retained")
        }
        guard m.contentType == .application else { throw MLSError(.wrongEpoch, "handshake message for past epoch \(m.epoch)") }
        var past = retainedEpochs[i]
        let authenticated = try m.unprotect(groupID: groupID, epoch: m.epoch, secretTree: &past.secretTree,
                                            senderDataSecret: past.senderDataSecret)
        guard case .member(let sender) = authenticated.content.sender, let leaf = past.tree.leaf(sender) else {
            throw MLSError(.invalidSender, "sender is not a member of epoch \(m.epoch)")
        }
        try authenticated.verifySignature(publicKey: leaf.signatureKey, groupContext: past.groupContext.tlsSerialized)
        guard case .application(let data) = authenticated.content.body else { throw MLSError(.invalidValue, "not application data") }
        retainedEpochs[i] = past
        return .application(sender: sender, identity: leaf.credential.identity, data: data,
                            authenticatedData: authenticated.content.authenticatedData, epoch: m.epoch)
    }

    /// Resolves a commit's proposals: inline ones come from the committer, references from the
    /// proposal cache (RFC 9420 §12.4).
    func resolve(_ commit: Commit, committer: UInt32) throws -> [(proposal: Proposal, sender: UInt32, byReference: Bool)] {
        try commit.proposals.map { item in
            switch item {
            case .proposal(let p): return (p, committer, false)
            case .reference(let ref):
                guard let cached = proposalCache.first(where: { $0.reference == ref }) else {
                    throw MLSError(.unknownProposal, "commit references a proposal not received")
                }
                return (cached.proposal, cached.sender, true)
            }
        }
    }

    /// Applies a received commit (RFC 9420 §12.4.2).
    mutating func applyCommit(_ commit: Commit, authenticated: AuthenticatedContent, committer: UInt32) throws -> MLSProcessOutcome {
        guard let confirmationTag = authenticated.auth.confirmationTag else { throw MLSError(.invalidCommit, "commit without confirmation tag") }
        let committerIdentity = tree.leaf(committer)?.credential.identity ?? []
        let resolved = try resolve(commit, committer: committer)
        var applied = try AppliedProposals(proposals: resolved, committer: committer, tree: tree, context: groupContext)
        guard commit.path != nil || !applied.pathRequired else { throw MLSError(.invalidCommit, "commit lacks a required UpdatePath") }
        let removedIdentities = applied.removed.compactMap { tree.leaf($0)?.credential.identity }
        let summaryBase = (added: applied.added.map { $0.keyPackage.leafNode.credential.identity }, removed: removedIdentities,
                           extensionsChanged: applied.extensions != groupContext.extensions)

        var provisional = groupContext
        provisional.epoch += 1
        provisional.extensions = applied.extensions
        let removedSelf = applied.removed.contains(ownLeaf)
        var commitSecret = SecureBytes(zeroedCount: cipherSuite.hashLength)
        var newPrivate = privateTree
        if let path = commit.path {
            try MarmotLeafRule.checkReplacement(path.leafNode, replacing: applied.tree.leaf(committer), profile: applied.profile, suite: cipherSuite)
            try TreeKEM.merge(path, from: committer, into: &applied.tree, groupID: groupID)
            provisional.treeHash = applied.tree.treeHash
            if !removedSelf {
                let result = try TreeKEM.decrypt(path, from: committer, tree: applied.tree, privateState: privateTree,
                                                 groupContext: provisional.tlsSerialized,
                                                 excludingAdded: Set(applied.added.map(\.leaf)), suite: cipherSuite)
                newPrivate = result.privateState
                commitSecret = result.commitSecret
            }
        } else {
            provisional.treeHash = applied.tree.treeHash
            newPrivate.prune(against: applied.tree)
        }

        let confirmed = try TranscriptHashes.confirmed(interimBefore: interimTranscriptHash, authenticatedContent: authenticated)
        var context = provisional
        context.confirmedTranscriptHash = confirmed
        let summary = MLSCommitSummary(committer: committer, committerIdentity: committerIdentity, epoch: context.epoch,
                                       added: summaryBase.added, removed: summaryBase.removed, extensionsChanged: summaryBase.extensionsChanged)
        if removedSelf {
            // The removed member cannot derive the new epoch; it keeps its past epochs only. It
            // does keep the GroupContext extensions the Commit set, signed by the committer like
            // the rest of it: they are the group data the Commit that removed it left (a disband
            // is read as one, PROTOCOL §5.16), though the context's other fields stay at the
            // epoch it last had.
            retainEpoch()
            groupContext.extensions = applied.extensions
            proposalCache = []
            isRemoved = true
            return .removed(summary)
        }
        let secrets = try KeySchedule.nextEpoch(initSecret: epochSecrets.initSecret, commitSecret: commitSecret,
                                                groupContext: context.tlsSerialized, suite: cipherSuite)
        try Self.verifyConfirmationTag(confirmationTag, key: secrets.confirmationKey, confirmed: confirmed)
        let newSecretTree = try SecretTree(encryptionSecret: secrets.encryptionSecret, leafCount: applied.tree.leafCount, suite: cipherSuite)

        retainEpoch()
        groupContext = context
        tree = applied.tree
        privateTree = newPrivate
        epochSecrets = secrets
        interimTranscriptHash = TranscriptHashes.interim(confirmed: confirmed, confirmationTag: confirmationTag)
        secretTree = newSecretTree
        proposalCache = []
        return .commit(summary)
    }

    /// Moves the current epoch's read secrets into the retained list, dropping the oldest.
    mutating func retainEpoch() {
        retainedEpochs.append(RetainedEpoch(groupContext: groupContext, tree: tree, secretTree: secretTree,
                                            senderDataSecret: epochSecrets.senderDataSecret))
        if retainedEpochs.count > Self.retainedEpochLimit { retainedEpochs.removeFirst(retainedEpochs.count - Self.retainedEpochLimit) }
    }
}
