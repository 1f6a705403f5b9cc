import InviteKitCrypto

/// One member's view of one epoch of a group (group.md). A value type: copies are the epoch
/// snapshots ``GroupSession`` keeps for rollback.
public struct GroupState: Sendable {
    public let cipherSuite: CipherSuite
    /// The private MLS group id (never on the wire outside encrypted content).
    public let groupID: [UInt8]
    /// The public id carried in the `h` tag.
    public let nostrGroupID: [UInt8]
    public internal(set) var epoch: UInt64
    public package(set) var members: [GroupMember]
    var memberHashes: [[UInt8]]
    var confirmedTranscriptHash: [UInt8]
    var interimTranscriptHash: [UInt8]
    package var secrets: LegacyEpochSecrets
    /// Serialized ``GroupContext`` of this epoch.
    package var contextBytes: [UInt8]
    /// This member's Nostr identity.
    public let ownIdentity: [UInt8]
    var encryptionKey: X25519.PrivateKey
    var signatureKey: Ed25519.PrivateKey
    /// This member's index in ``members``.
    public internal(set) var ownIndex: Int

    /// The exporter secret of this epoch, for callers deriving their own keys
    /// (`MLS-Exporter(label, context, length)`, RFC 9420 §8.5).
    public func exportSecret(label: String, context: [UInt8], length: Int) -> SecureBytes {
        LegacyEpochSecrets.export(secrets.exporterSecret, label: label, context: context, length: length)
    }

    /// A non-secret fingerprint of the epoch secret (SHA-256 of `DeriveSecret(epoch_secret,
    /// "fingerprint")`), for comparing members in tests and the simulator without exporting it.
    public var epochFingerprint: [UInt8] {
        SHA256.hash(MLSCrypto.deriveSecret(secret: secrets.epochSecret, label: "fingerprint"))
    }

    /// The group context of this epoch.
    public var groupContext: LegacyGroupContext { try! LegacyGroupContext(tlsSerialized: contextBytes) }

    /// This member's roster entry.
    public var ownMember: GroupMember { members[ownIndex] }

    /// Index of `identity` in the roster.
    public func index(of identity: [UInt8]) -> Int? { members.firstIndex { $0.identity == identity } }

    static func rosterHash(_ hashes: [[UInt8]]) -> [UInt8] {
        var h = SHA256()
        for m in hashes { h.update(m) }
        return h.finalize()
    }

    static func interimHash(confirmed: [UInt8], tag: [UInt8]) -> [UInt8] {
        var w = TLSWriter(capacity: 80)
        w.writeOpaque(confirmed)
        w.writeOpaque(tag)
        return SHA256.hash(w.bytes)
    }

    static func confirmedHash(interim: [UInt8], tbsHash: [UInt8], signature: [UInt8]) -> [UInt8] {
        var w = TLSWriter(capacity: 140)
        w.writeOpaque(interim)
        w.writeOpaque(tbsHash)
        w.writeOpaque(signature)
        return SHA256.hash(w.bytes)
    }

    /// Creates a group with `identity` as its only member and admin, at epoch 0.
    public static func create(identity: [UInt8], cipherSuite: CipherSuite = .x25519Aes128GcmSha256Ed25519,
                              rng: RandomSource = SystemRandom()) throws -> GroupState {
        guard cipherSuite.isSupported else { throw MLSError(.unsupportedCipherSuite, cipherSuite.description) }
        guard identity.count == 32 else { throw GroupError(.invalidProposal, "identity must be 32 bytes") }
        let enc = X25519.PrivateKey(using: rng)
        let sig = Ed25519.PrivateKey(using: rng)
        let me = GroupMember(identity: identity, encryptionKey: enc.publicKey, signatureKey: sig.publicKey, isAdmin: true)
        let groupID = rng.bytes(32)
        let nostrGroupID = rng.bytes(32)
        let initSecret = rng.secureBytes(32)
        let hashes = [me.hash]
        let ctx = LegacyGroupContext(cipherSuite: cipherSuite, groupID: groupID, nostrGroupID: nostrGroupID, epoch: 0,
                               rosterHash: rosterHash(hashes), confirmedTranscriptHash: [])
        let ctxBytes = ctx.tlsSerialized
        let joiner = LegacyEpochSecrets.joinerSecret(previousInitSecret: initSecret, commitSecret: SecureBytes(zeroedCount: 32),
                                               groupContext: ctxBytes)
        let secrets = LegacyEpochSecrets(joinerSecret: joiner, groupContext: ctxBytes)
        let tag = secrets.confirmationTag([])
        return GroupState(cipherSuite: cipherSuite, groupID: groupID, nostrGroupID: nostrGroupID, epoch: 0, members: [me],
                          memberHashes: hashes, confirmedTranscriptHash: [], interimTranscriptHash: interimHash(confirmed: [], tag: tag),
                          secrets: secrets, contextBytes: ctxBytes, ownIdentity: identity, encryptionKey: enc, signatureKey: sig,
                          ownIndex: 0)
    }
}
