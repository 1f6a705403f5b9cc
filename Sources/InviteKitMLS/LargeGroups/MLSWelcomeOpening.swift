import InviteKitCrypto

/// A Welcome opened with the KeyPackage it names, before the join completes
/// (``MLSGroupState/openWelcome(_:keyPackage:)``). Holds the decrypted GroupSecrets in zeroizing
/// storage; nothing of the KeyPackage is consumed.
package struct MLSWelcomeOpening: Sendable {
    let bundle: KeyPackageBundle
    let secrets: GroupSecrets
    let pskSecret: SecureBytes?
    /// Keys the out-of-band tree's chunks (PROTOCOL §5.11).
    let welcomeSecret: SecureBytes
    /// The decrypted GroupInfo; its signature is checked by ``MLSGroupState/join(_:ratchetTree:)``,
    /// once the signer's leaf is known.
    package let groupInfo: GroupInfo
    /// The tree of the `ratchet_tree` extension, when the Welcome carries it.
    let inlineTree: RatchetTree?
    /// The `RatchetTreeOption` GroupInfo extension, when present.
    package let treeOption: RatchetTreeOption?

    /// The Welcome names its tree as out of band: the join needs the chunk events.
    package var treeIsOutOfBand: Bool {
        guard inlineTree == nil, case .outOfBand? = treeOption else { return false }
        return true
    }

    /// The GroupContext's tree hash, which the reassembled tree must have.
    package var treeHash: [UInt8] { groupInfo.groupContext.treeHash }

    /// Decrypts and reassembles chunks sealed by ``RatchetTreeChunks/seal(tree:treeHash:welcomeSecret:suite:maxSealedBytes:)``
    /// (in order) and parses the tree. The hash and signatures are checked by
    /// ``MLSGroupState/join(_:ratchetTree:)``.
    package func openTreeChunks(_ sealed: [[UInt8]], treeLength: Int) throws -> RatchetTree {
        let bytes = try RatchetTreeChunks.open(sealed, treeHash: treeHash, treeLength: treeLength, welcomeSecret: welcomeSecret,
                                               suite: groupInfo.groupContext.cipherSuite)
        do { return try RatchetTree(tlsSerialized: bytes) } catch { throw MLSError(.treeChunkInvalid, "the reassembled ratchet tree does not parse") }
    }
}
