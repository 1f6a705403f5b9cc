import InviteKitCrypto

extension MLSGroupState {
    /// The format byte of ``serialized()``.
    package static let serializationVersion: UInt8 = 2
    /// The versions ``init(serialized:relativeTo:)`` reads: 1 (every tree in full) and 2.
    package static let readableSerializationVersions: ClosedRange<UInt8> = 1...2
    static let envelope = VersionedEnvelope("group state", version: serializationVersion, readable: readableSerializationVersions)

    /// The whole member state as versioned bytes, in zeroizing storage because it holds every
    /// secret of the member (PROTOCOL.md §5.10): `uint8 version = 2; GroupContext; StoredTree
    /// tree; opaque signature_seed<V>; opaque tree_private<V>; opaque epoch_secrets<V>[11]; opaque
    /// interim_transcript_hash<V>; SecretTree; uint8 removed; RetainedEpoch retained<V>;
    /// CachedProposal proposals<V>;` with `StoredTree = uint8 form; select (form) { 0: ratchet_tree;
    /// 1: TreeDelta from base.tree; 2: uint32 node_count }` and `RetainedEpoch = { GroupContext;
    /// TreeDelta from tree; SecretTree; opaque sender_data_secret<V> }`
    /// (``RatchetTree/encodeDelta(from:to:)``). Form 2 leaves the tree to its caller, who stores
    /// it apart (``RatchetTree/storedChunks(changedSince:)``). Version 1 held every tree in full
    /// and no form byte.
    public func serialized() -> SecureBytes { serialized(relativeTo: nil) }

    /// ``serialized()`` with the tree written as its differences from `base`'s, for states kept
    /// beside `base` (a group's rollback snapshots beside its current state). Read it back with
    /// ``init(serialized:relativeTo:)`` and the same base.
    public func serialized(relativeTo base: MLSGroupState?) -> SecureBytes { serialized(relativeTo: base, treeApart: false) }

    /// ``serialized()`` without the tree (form 2): only its width, for a store that keeps the
    /// tree apart in chunks. Read it back with ``init(serialized:relativeTo:apartTree:)``.
    package func serializedWithoutTree() -> SecureBytes { serialized(relativeTo: nil, treeApart: true) }

    private func serialized(relativeTo base: MLSGroupState?, treeApart: Bool) -> SecureBytes {
        Self.envelope.seal(capacity: 4096 + (base == nil && !treeApart ? 300 * tree.storage.count : 4096)) { w in
            groupContext.encode(to: &w)
            if treeApart {
                w.writeUInt8(2)
                w.writeUInt32(UInt32(tree.nodeCount))
            } else if let base {
                w.writeUInt8(1)
                tree.encodeDelta(from: base.tree, to: &w)
            } else {
                w.writeUInt8(0)
                w.writeBytes(treeEncoding.encoding(of: tree))
            }
            signatureKey.rawRepresentation.withUnsafeBytes { w.writeOpaque($0) }
            privateTree.serialized().withUnsafeBytes { w.writeOpaque($0) }
            for s in epochSecrets.allSecrets { s.withUnsafeBytes { w.writeOpaque($0) } }
            w.writeOpaque(interimTranscriptHash)
            secretTree.encode(to: &w)
            w.writeUInt8(isRemoved ? 1 : 0)
            w.writeVector { v in
                for r in retainedEpochs {
                    r.groupContext.encode(to: &v)
                    r.tree.encodeDelta(from: tree, to: &v)
                    r.secretTree.encode(to: &v)
                    r.senderDataSecret.withUnsafeBytes { v.writeOpaque($0) }
                }
            }
            w.writeVector { v in
                for c in proposalCache {
                    v.writeOpaque(c.reference)
                    c.proposal.encode(to: &v)
                    v.writeUInt32(c.sender)
                }
            }
        }
    }

    public init(serialized data: SecureBytes) throws { try self.init(serialized: data, relativeTo: nil) }

    /// Reads ``serialized(relativeTo:)`` back (version 1 or 2); every secret lands in
    /// ``SecureBytes`` again, and trees stored as deltas share `base`'s unchanged nodes. Fails
    /// with a typed error on any other version, a delta without its base, truncation or
    /// inconsistency (keys that do not match the tree, a tree that does not match its
    /// GroupContext's tree hash).
    public init(serialized data: SecureBytes, relativeTo base: MLSGroupState?) throws {
        try self.init(serialized: data, relativeTo: base, apartTree: nil)
    }

    /// Reads any form, a ``serializedWithoutTree()`` one with `apartTree` as its tree (checked
    /// against the stored width and the GroupContext's tree hash).
    package init(serialized data: SecureBytes, relativeTo base: MLSGroupState?, apartTree: RatchetTree?) throws {
        func secret(_ r: inout TLSReader) throws -> SecureBytes {
            var b = try r.readOpaque()
            defer { zeroize(&b) }
            return SecureBytes(copying: b)
        }
        self = try Self.envelope.open(data) { version, r in
            let context = try GroupContext(from: &r)
            let tree: RatchetTree
            switch version == 1 ? 0 : try r.readUInt8() {
            case 0: tree = try RatchetTree(from: &r)
            case 1:
                guard let base else { throw MLSError(.invalidValue, "a group state stored against another one was read alone") }
                tree = try RatchetTree(delta: &r, base: base.tree)
            case 2:
                let width = Int(try r.readUInt32())
                guard let apartTree else { throw MLSError(.invalidValue, "a group state whose tree is stored apart was read without it") }
                guard apartTree.nodeCount == width else { throw MLSError(.invalidTree, "the tree stored apart has \(apartTree.nodeCount) nodes, not \(width)") }
                tree = apartTree
            case let f: throw MLSError(.invalidValue, "stored tree form \(f)")
            }
            let sigKey: Ed25519.PrivateKey
            do { sigKey = try Ed25519.PrivateKey(rawRepresentation: try secret(&r)) } catch { throw MLSError(.invalidKey, "signature key") }
            let priv = try TreePrivateState(serialized: try secret(&r))
            var parts: [SecureBytes] = []
            for _ in 0..<EpochSecrets.secretCount { parts.append(try secret(&r)) }
            let interim = try r.readOpaque()
            let secretTree = try SecretTree(from: &r)
            let removedFlag = try r.readUInt8()
            guard removedFlag <= 1 else { throw MLSError(.invalidValue, "removed flag \(removedFlag)") }
            let retained: [RetainedEpoch] = try r.readVector { v in
                let context = try GroupContext(from: &v)
                let past = version == 1 ? try RatchetTree(from: &v) : try RatchetTree(delta: &v, base: tree)
                guard past.treeHash == context.treeHash else { throw MLSError(.treeHashMismatch, "a retained epoch's tree differs from its GroupContext") }
                return RetainedEpoch(groupContext: context, tree: past, secretTree: try SecretTree(from: &v), senderDataSecret: try secret(&v))
            }
            let cache: [CachedProposal] = try r.readVector { v in
                CachedProposal(reference: try v.readOpaque(), proposal: try Proposal(from: &v), sender: try v.readUInt32())
            }
            guard retained.count <= Self.retainedEpochLimit else { throw MLSError(.invalidValue, "too many retained epochs") }
            guard tree.leaf(priv.leafIndex)?.signatureKey == sigKey.publicKey || removedFlag == 1 else {
                throw MLSError(.invalidKey, "signature key does not match this member's leaf")
            }
            if removedFlag == 0 { try priv.verifyConsistency(with: tree) }
            guard context.treeHash == tree.treeHash else { throw MLSError(.treeHashMismatch, "stored tree differs from the GroupContext") }
            var state = MLSGroupState(groupContext: context, tree: tree, signatureKey: sigKey, privateTree: priv,
                      epochSecrets: EpochSecrets(allSecrets: parts), interimTranscriptHash: interim, secretTree: secretTree,
                      retainedEpochs: retained, proposalCache: cache)
            state.isRemoved = removedFlag == 1
            return state
        }
    }
}

extension EpochSecrets {
    static let secretCount = 11

    /// Every secret, in a fixed order, for serialization.
    var allSecrets: [SecureBytes] {
        [joinerSecret, welcomeSecret, senderDataSecret, encryptionSecret, exporterSecret, externalSecret, confirmationKey,
         membershipKey, resumptionPSK, epochAuthenticator, initSecret]
    }

    /// Rebuilds from ``allSecrets``.
    init(allSecrets s: [SecureBytes]) {
        joinerSecret = s[0]; welcomeSecret = s[1]; senderDataSecret = s[2]; encryptionSecret = s[3]; exporterSecret = s[4]
        externalSecret = s[5]; confirmationKey = s[6]; membershipKey = s[7]; resumptionPSK = s[8]; epochAuthenticator = s[9]
        initSecret = s[10]
    }
}
