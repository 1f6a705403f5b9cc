import InviteKitCrypto

/// One member's view of an RFC 9420 group (the Marmot profile): the public tree and GroupContext,
/// this member's private keys and the current epoch's secrets, plus the secret trees of recent
/// epochs so that late application messages still decrypt.
///
/// A value type: every operation returns or mutates a copy, and a failed operation leaves the
/// state it was called on unchanged.
public struct MLSGroupState: Sendable {
    /// How many past epochs keep their secret trees for late messages: the Marmot window.
    public static let retainedEpochLimit = MarmotProfile.epochLookback

    /// The GroupContext of the current epoch (RFC 9420 §8.1).
    package internal(set) var groupContext: GroupContext
    /// The public ratchet tree (RFC 9420 §7).
    package internal(set) var tree: RatchetTree
    /// This member's leaf index.
    package var ownLeaf: UInt32 { privateTree.leafIndex }
    /// This member's leaf signature key.
    let signatureKey: Ed25519.PrivateKey
    /// The HPKE private keys this member holds: its leaf's and those of the nodes of its direct
    /// path it learned path secrets for (RFC 9420 §7.4).
    var privateTree: TreePrivateState
    /// The current epoch's secrets (RFC 9420 §8).
    var epochSecrets: EpochSecrets
    /// `interim_transcript_hash` of the current epoch (RFC 9420 §8.2).
    var interimTranscriptHash: [UInt8]
    /// The current epoch's secret tree (RFC 9420 §9).
    var secretTree: SecretTree
    /// Past epochs, oldest first, at most ``retainedEpochLimit``.
    var retainedEpochs: [RetainedEpoch]
    /// Proposals received in this epoch, for commits that include them by reference (RFC 9420 §12.4).
    var proposalCache: [CachedProposal]
    /// `true` once a commit removed this member (RFC 9420 §12.1.3): only past epochs remain readable.
    public internal(set) var isRemoved = false
    /// The leaf that signed the GroupInfo of the Welcome this state was joined from (RFC 9420
    /// §12.4.3.1), until the first save: the Marmot layer checks it is an admin. Not stored.
    package internal(set) var welcomeSigner: UInt32?
    /// The last tree encoding ``serialized()`` made, shared by the copies of this state: a save
    /// after a message (same tree) copies it instead of encoding every node again.
    private(set) var treeEncoding = TreeEncodingCache()

    package var cipherSuite: CipherSuite { groupContext.cipherSuite }
    package var groupID: [UInt8] { groupContext.groupID }
    public var epoch: UInt64 { groupContext.epoch }

    /// `epoch_authenticator` (RFC 9420 §8.7).
    package var epochAuthenticator: [UInt8] { epochSecrets.epochAuthenticator.exportBytes() }

    /// This member's LeafNode.
    package var ownLeafNode: LeafNode? { tree.leaf(ownLeaf) }

    /// The credential identities of the members by leaf index (for Marmot: Nostr public keys).
    package var members: [(leaf: UInt32, identity: [UInt8])] {
        tree.occupiedLeaves.compactMap { i in tree.leaf(i).map { (i, $0.credential.identity) } }
    }

    /// The GroupContext extension of `type`, if any.
    package func groupContextExtension(_ type: UInt16) -> MLSExtension? { groupContext.extension(type) }
}
