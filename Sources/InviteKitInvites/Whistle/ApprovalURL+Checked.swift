import InviteKitCrypto

extension ApprovalURL {
    /// An approval that ``init(url:)`` reads back: refuses an empty group id and one longer than
    /// ``maxGroupIdBytes``, the reader's limit, instead of building a link it would refuse.
    public init(checkedPubkey pubkey: Secp256k1.XOnlyPublicKey, groupId: String) throws(InviteError) {
        guard !groupId.isEmpty else { throw InviteError(.invalidArgument, "group id is empty") }
        let length = groupId.utf8.count
        guard length <= Self.maxGroupIdBytes else {
            throw InviteError(.inputTooLarge, "group id is \(length) bytes; approval links carry at most \(Self.maxGroupIdBytes) (ApprovalURL.maxGroupIdBytes)")
        }
        self.init(pubkey: pubkey, groupId: groupId)
    }
}
