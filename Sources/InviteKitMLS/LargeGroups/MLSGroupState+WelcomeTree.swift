extension MLSGroupState {
    /// The GroupInfo extensions of this epoch's Welcome (called on the state after the commit):
    /// `ratchet_tree` when the one-member Welcome fits `policy`, else `RatchetTreeOption.outOfBand`
    /// signed over the tree hash (PROTOCOL §5.11). Sizes are computed before anything is sealed,
    /// so only one GroupInfo is ever encrypted under this epoch's `welcome_key`/`welcome_nonce`.
    func welcomeGroupInfoExtensions(_ policy: WelcomeTreePolicy) -> [MLSExtension] {
        let inline = RatchetTreeExtension.fromTree(tree)
        guard let limit = policy.maxInlineWelcomeBytes else { return [inline] }
        let bare = GroupInfo(groupContext: groupContext, extensions: [], confirmationTag: [UInt8](repeating: 0, count: cipherSuite.hashLength),
                             signer: ownLeaf, signature: [UInt8](repeating: 0, count: 64))
        // The extension vector's length prefix grows by at most 3 bytes.
        let infoBytes = bare.tlsSerialized.count + inline.tlsSerialized.count + 3
        if Welcome.oneMemberMessageBytes(groupInfoBytes: infoBytes) <= limit { return [inline] }
        return [RatchetTreeOption.outOfBand(signer: signatureKey, groupID: groupID, epoch: epoch, treeHash: tree.treeHash).asExtension]
    }
}
