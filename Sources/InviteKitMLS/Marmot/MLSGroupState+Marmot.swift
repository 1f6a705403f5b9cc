import InviteKitCrypto

/// The RFC 9420 engine as the engine of a ``MarmotGroup``.
extension MLSGroupState: MarmotEngine {
    public typealias Pending = MLSPendingCommit

    public static func keyPackageReferences(inWelcome welcomeMessage: [UInt8]) throws -> [[UInt8]] {
        try welcome(welcomeMessage).secrets.map(\.newMember)
    }

    public static func join(welcomeMessage: [UInt8], bundle: KeyPackageBundle) throws -> MLSGroupState {
        try join(welcome: welcome(welcomeMessage), keyPackage: bundle)
    }

    static func welcome(_ bytes: [UInt8]) throws -> Welcome {
        guard case let .welcome(w) = try MLSMessage(tlsSerialized: bytes).body else {
            throw MLSError(.invalidWelcome, "not an MLSMessage Welcome")
        }
        return w
    }

    public var ownIdentity: [UInt8] { tree.leaf(ownLeaf)?.credential.identity ?? [] }
    public var memberIdentities: [[UInt8]] { members.map(\.identity) }
    public var groupContextExtensions: [MLSExtension] { groupContext.extensions }
    public var welcomeSignerIdentity: [UInt8]? { welcomeSigner.flatMap { tree.leaf($0)?.credential.identity } }

    public mutating func sealApplication(_ data: [UInt8], rng: RandomSource) throws -> [UInt8] {
        try encryptApplication(data, authenticatedData: [], padTo: 0, rng: rng)
    }

    /// SelfRemove goes out as a PublicMessage (draft-ietf-mls-extensions; MDK does the same).
    public mutating func proposeSelfRemove(rng: RandomSource) throws -> [UInt8] {
        try propose(.selfRemove, wireFormat: .publicMessage, authenticatedData: [], rng: rng).message
    }

    public func makeCommit(_ request: MarmotCommitRequest, rng: RandomSource) throws -> (pending: MLSPendingCommit, message: [UInt8], welcome: [UInt8]?) {
        var actions: [MLSProposalAction] = request.adds.map { .add($0) }
        for identity in request.removes {
            guard let m = members.first(where: { $0.identity == identity }) else { throw MLSError(.invalidProposal, "remove of a non-member") }
            actions.append(.remove(leaf: m.leaf))
        }
        let profile = try MarmotWireProfile.of(groupContextExtensions: groupContext.extensions)
        if let data = request.groupData {
            switch data.profile {
            case .mip:
                var exts = groupContext.extensions.filter { $0.extensionType != MarmotProfile.groupDataExtensionType }
                exts.insert(try data.groupContextExtension(), at: 0)
                actions.append(.groupContextExtensions(exts))
            case .current:
                // Components change by AppDataUpdate, never by GroupContextExtensions
                // (`app-components/README.md`, "Placement").
                let old = try MarmotGroupData(extensions: groupContext.extensions)
                actions += try old.appDataUpdates(to: data).map { .appDataUpdate($0) }
            }
        }
        let references = request.includeSelfRemoves ? pendingSelfRemoves.map(\.reference) : []
        // The current profile sends handshakes as PublicMessage inside the kind-445 layer (MDK
        // v0.9.14 `cgka-engine/src/group_lifecycle.rs:424`, `PURE_PLAINTEXT_WIRE_FORMAT_POLICY`);
        // MDK 0.8.0 sends them as PrivateMessage.
        let wireFormat: WireFormat = profile == .current ? .publicMessage : .privateMessage
        let pending = try commit(actions, references: references, wireFormat: wireFormat, authenticatedData: [],
                                 welcomeTree: request.welcomeTree, includeUpdatePath: request.includeUpdatePath, rng: rng)
        return (pending, pending.message, pending.welcome)
    }

    /// SelfRemove proposals received this epoch, with their senders' identities.
    var pendingSelfRemoves: [(reference: [UInt8], identity: [UInt8])] {
        pendingProposalReferences.compactMap { p in
            guard case .selfRemove = p.proposal, let id = tree.leaf(p.sender)?.credential.identity else { return nil }
            return (p.reference, id)
        }
    }

    public mutating func processMessage(_ message: [UInt8]) throws -> MarmotEngineEvent {
        let selfRemovers = pendingSelfRemoves.map(\.identity)
        switch try process(message) {
        case let .application(_, identity, data, _, _):
            return .application(sender: identity, data: data)
        case let .proposal(_, proposal, sender):
            guard let id = tree.leaf(sender)?.credential.identity else { throw MLSError(.invalidSender, "proposal from an empty leaf") }
            if case .selfRemove = proposal { return .proposal(sender: id, selfRemove: true) }
            return .proposal(sender: id, selfRemove: false)
        case let .commit(s), let .removed(s):
            // The summary gives effects, not proposal types: a commit that adds, removes and
            // changes nothing is a self-update; one whose removals all had a SelfRemove pending is
            // SelfRemove-only.
            let quiet = s.added.isEmpty && !s.extensionsChanged
            return .commit(MarmotCommitInfo(committer: s.committerIdentity, added: s.added, removed: s.removed,
                                            extensionsChanged: s.extensionsChanged, onlyOwnUpdate: quiet && s.removed.isEmpty,
                                            onlySelfRemoves: quiet && !s.removed.isEmpty && s.removed.allSatisfy { selfRemovers.contains($0) }))
        }
    }
}
