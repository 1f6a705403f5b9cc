import InviteKitCrypto

extension MLSGroupState {
    /// The format byte of ``serialized()``.
    public static let serializationVersion: UInt8 = 1

    /// The whole member state as versioned bytes, in zeroizing storage because it holds every
    /// secret of the member: `uint8 version = 1; GroupContext; ratchet_tree; opaque signature_seed<V>;
    /// opaque tree_private<V>; opaque epoch_secrets<V>[11]; opaque interim_transcript_hash<V>;
    /// SecretTree; uint8 removed; RetainedEpoch retained<V>; CachedProposal proposals<V>;`.
    public func serialized() -> SecureBytes {
        var w = TLSWriter(capacity: 4096)
        w.writeUInt8(Self.serializationVersion)
        groupContext.encode(to: &w)
        tree.encode(to: &w)
        signatureKey.rawRepresentation.withUnsafeBytes { w.writeOpaque($0) }
        privateTree.serialized().withUnsafeBytes { w.writeOpaque($0) }
        for s in epochSecrets.allSecrets { s.withUnsafeBytes { w.writeOpaque($0) } }
        w.writeOpaque(interimTranscriptHash)
        secretTree.encode(to: &w)
        w.writeUInt8(isRemoved ? 1 : 0)
        w.writeVector { v in
            for r in retainedEpochs {
                r.groupContext.encode(to: &v)
                r.tree.encode(to: &v)
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
        var bytes = w.takeBytes()
        defer { zeroize(&bytes) }
        return SecureBytes(copying: bytes)
    }

    /// Reads ``serialized()`` back; every secret lands in ``SecureBytes`` again. Fails with a
    /// typed error on any other version, truncation or inconsistency (keys that do not match the
    /// tree).
    public init(serialized data: SecureBytes) throws {
        var copy = data.exportBytes()
        defer { zeroize(&copy) }
        var r = TLSReader(copy)
        func secret(_ r: inout TLSReader) throws -> SecureBytes {
            var b = try r.readOpaque()
            defer { zeroize(&b) }
            return SecureBytes(copying: b)
        }
        guard try r.readUInt8() == Self.serializationVersion else { throw MLSError(.invalidValue, "unknown group state format") }
        let context = try GroupContext(from: &r)
        let tree = try RatchetTree(from: &r)
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
            RetainedEpoch(groupContext: try GroupContext(from: &v), tree: try RatchetTree(from: &v), secretTree: try SecretTree(from: &v),
                          senderDataSecret: try secret(&v))
        }
        let cache: [CachedProposal] = try r.readVector { v in
            CachedProposal(reference: try v.readOpaque(), proposal: try Proposal(from: &v), sender: try v.readUInt32())
        }
        try r.finish()
        guard retained.count <= Self.retainedEpochLimit else { throw MLSError(.invalidValue, "too many retained epochs") }
        guard tree.leaf(priv.leafIndex)?.signatureKey == sigKey.publicKey || removedFlag == 1 else {
            throw MLSError(.invalidKey, "signature key does not match this member's leaf")
        }
        if removedFlag == 0 { try priv.verifyConsistency(with: tree) }
        guard context.treeHash == tree.treeHash else { throw MLSError(.treeHashMismatch, "stored tree differs from the GroupContext") }
        self.init(groupContext: context, tree: tree, signatureKey: sigKey, privateTree: priv,
                  epochSecrets: EpochSecrets(allSecrets: parts), interimTranscriptHash: interim, secretTree: secretTree,
                  retainedEpochs: retained, proposalCache: cache)
        isRemoved = removedFlag == 1
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
