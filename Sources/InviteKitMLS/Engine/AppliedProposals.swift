/// A commit's proposals after validation (RFC 9420 §12.2) and their effect on the tree and the
/// GroupContext extensions (RFC 9420 §12.3).
struct AppliedProposals: Sendable {
    /// The tree with every proposal applied (before any UpdatePath).
    var tree: RatchetTree
    /// The GroupContext extensions of the next epoch.
    var extensions: [MLSExtension]
    /// Leaves filled by Add proposals, with their KeyPackages, in proposal order.
    var added: [(leaf: UInt32, keyPackage: KeyPackage)]
    /// Leaves emptied by Remove and SelfRemove proposals.
    var removed: [UInt32]
    /// Leaves replaced by Update proposals.
    var updated: [UInt32]
    /// `true` when the commit must carry an UpdatePath (RFC 9420 §12.4; SelfRemove: extensions
    /// draft §6.3): any proposal other than Add, or no proposal at all.
    var pathRequired: Bool
    /// The Marmot profile of the group (``MarmotWireProfile/of(groupContextExtensions:)``), the
    /// same before and after the commit; `nil` for a plain RFC 9420 group.
    var profile: MarmotWireProfile?

    /// Validates `proposals` (each with the leaf that proposed it) for a commit by `committer`
    /// and applies them in the order of RFC 9420 §12.3: GroupContextExtensions and AppDataUpdate,
    /// Update, SelfRemove and Remove, Add. Every new or replaced leaf must meet the group's
    /// Marmot profile (``MarmotLeafRule``), and the commit may not change the profile.
    init(proposals: [(proposal: Proposal, sender: UInt32, byReference: Bool)], committer: UInt32, tree start: RatchetTree,
         context: GroupContext) throws {
        tree = start
        extensions = context.extensions
        added = []
        removed = []
        updated = []
        pathRequired = proposals.isEmpty

        var gce: [MLSExtension]?
        var appDataUpdates: [AppDataUpdate] = []
        var updates: [(UInt32, LeafNode)] = []
        var removes: [UInt32] = []
        var adds: [KeyPackage] = []
        for (p, sender, byRef) in proposals {
            switch p {
            case .add(let kp): adds.append(kp)
            case .update(let leaf):
                guard byRef else { throw MLSError(.invalidProposal, "an Update must be sent by reference") }
                guard sender != committer else { throw MLSError(.invalidProposal, "the committer cannot include its own Update") }
                updates.append((sender, leaf))
                pathRequired = true
            case .remove(let leaf):
                removes.append(leaf)
                pathRequired = true
            case .selfRemove:
                guard byRef else { throw MLSError(.invalidProposal, "a SelfRemove must be sent by reference") }
                guard sender != committer else { throw MLSError(.invalidProposal, "the committer cannot remove itself") }
                removes.append(sender)
                pathRequired = true
            case .groupContextExtensions(let exts):
                guard gce == nil else { throw MLSError(.invalidProposal, "more than one GroupContextExtensions") }
                gce = exts
                pathRequired = true
            case .appDataUpdate(let u):
                // Not path-required (draft-ietf-mls-extensions-10; OpenMLS `proposals.rs:186-196`):
                // MDK's AppDataUpdate-only commits carry no UpdatePath.
                appDataUpdates.append(u)
            case .preSharedKey: throw MLSError(.unsupportedFeature, "PreSharedKey proposal (PSKs are outside the Marmot profile)")
            case .reInit: throw MLSError(.unsupportedFeature, "ReInit proposal (outside the Marmot profile)")
            case .externalInit: throw MLSError(.unsupportedFeature, "ExternalInit proposal (external commits are outside the Marmot profile)")
            }
        }

        let suite = context.cipherSuite
        if let gce {
            var seen = Set<UInt16>()
            for e in gce { guard seen.insert(e.extensionType).inserted else { throw MLSError(.invalidProposal, "duplicate extension \(e.extensionType)") } }
            extensions = gce
        }
        extensions = try AppDataUpdate.apply(appDataUpdates, to: extensions)
        profile = try MarmotWireProfile.of(groupContextExtensions: context.extensions)
        guard try MarmotWireProfile.of(groupContextExtensions: extensions) == profile else {
            throw MLSError(.profileMismatch, "a commit may not change the group's Marmot profile")
        }
        let extensionsChanged = gce != nil || !appDataUpdates.isEmpty
        var touched = Set<UInt32>()
        for (leaf, node) in updates {
            guard touched.insert(leaf).inserted else { throw MLSError(.invalidProposal, "two proposals for leaf \(leaf)") }
            guard case .update = node.source else { throw MLSError(.invalidProposal, "Update leaf source is not update") }
            guard node.verifySignature(groupID: context.groupID, leafIndex: leaf) else {
                throw MLSError(.invalidSignature, "Update LeafNode signature of leaf \(leaf)")
            }
            try MarmotLeafRule.checkReplacement(node, replacing: tree.leaf(leaf), profile: profile, suite: suite)
            // RFC 9420 §7.3: keys stay unique across the tree.
            let own = TreeMath.nodeIndex(leaf: leaf)
            guard !tree.nodes(holdingEncryptionKey: node.encryptionKey).contains(where: { $0 != own }) else {
                throw MLSError(.invalidProposal, "Update reuses an encryption key of the tree")
            }
            guard !tree.nodes(holdingSignatureKey: node.signatureKey).contains(where: { $0 != own }) else {
                throw MLSError(.invalidProposal, "Update reuses another member's signature key")
            }
            try tree.updateLeaf(leaf, with: node)
            updated.append(leaf)
        }
        for leaf in removes {
            guard leaf != committer else { throw MLSError(.invalidProposal, "a commit cannot remove its committer") }
            guard touched.insert(leaf).inserted else { throw MLSError(.invalidProposal, "two proposals for leaf \(leaf)") }
            guard tree.leaf(leaf) != nil else { throw MLSError(.invalidProposal, "Remove of blank leaf \(leaf)") }
            try tree.removeLeaf(leaf)
            removed.append(leaf)
        }
        for kp in adds {
            guard kp.cipherSuite == suite else { throw MLSError(.invalidProposal, "Add KeyPackage of another cipher suite") }
            do { try kp.verify() } catch { throw MLSError(.invalidProposal, "Add KeyPackage does not verify: \(error)") }
            try MarmotLeafRule.check(kp.leafNode, profile: profile, suite: suite)
            // The tree's key indexes include the leaves added before this one.
            guard tree.nodes(holdingSignatureKey: kp.leafNode.signatureKey).isEmpty else {
                throw MLSError(.invalidProposal, "Add of a signature key already in the group")
            }
            guard tree.nodes(holdingEncryptionKey: kp.leafNode.encryptionKey).isEmpty else {
                throw MLSError(.invalidProposal, "Add of an encryption key already in the group")
            }
            let leaf = tree.addLeaf(kp.leafNode)
            added.append((leaf, kp))
        }
        // RFC 9420 §12.1.7, §13.4: every member supports each non-default GroupContext extension.
        if extensionsChanged {
            for e in extensions where e.extensionType > 0x0005 {
                for i in tree.occupiedLeaves where tree.leaf(i)?.capabilities.extensions.contains(e.extensionType) != true {
                    throw MLSError(.invalidProposal, "leaf \(i) does not support extension \(e.extensionType)")
                }
            }
        }
        try MarmotLeafRule.checkSupport(extensionsChanged ? tree.occupiedLeaves : updated + added.map(\.leaf), in: tree,
                                        groupContextExtensions: extensions, profile: profile)
        if let raw = extensions.first(where: { $0.extensionType == RequiredCapabilities.extensionType }) {
            let required = try RequiredCapabilities(tlsSerialized: raw.data)
            // The members of the current epoch already satisfy its requirements (checked when they
            // were added, and by a joiner for the whole tree), so unless the extensions change only
            // new and updated leaves need checking.
            let leaves = extensionsChanged ? tree.occupiedLeaves : updated + added.map(\.leaf)
            for i in leaves {
                guard let leaf = tree.leaf(i), required.isSatisfied(by: leaf.capabilities) else {
                    throw MLSError(.invalidProposal, "leaf \(i) lacks a required capability")
                }
            }
        }
    }
}
