import InviteKitCrypto

/// What a member keeps of a past epoch: enough to decrypt and authenticate late messages.
struct RetainedEpoch: Sendable {
    var groupContext: GroupContext
    var tree: RatchetTree
    var secretTree: SecretTree
    var senderDataSecret: SecureBytes
}
