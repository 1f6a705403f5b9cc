import InviteKitCrypto

extension MLSGroupState {
    /// Encrypts application data as a PrivateMessage of the current epoch (RFC 9420 §6.3) and
    /// returns the serialized MLSMessage. Advances this member's application ratchet.
    package mutating func encryptApplication(_ data: [UInt8], authenticatedData: [UInt8] = [], padTo: Int = 0,
                                            rng: RandomSource = SystemRandom()) throws -> [UInt8] {
        guard !isRemoved else { throw MLSError(.notMember, "this member was removed from the group") }
        let content = FramedContent(groupID: groupID, epoch: epoch, sender: .member(leafIndex: ownLeaf),
                                    authenticatedData: authenticatedData, body: .application(data))
        let authenticated = AuthenticatedContent.sign(wireFormat: .privateMessage, content: content, signer: signatureKey,
                                                      groupContext: groupContext.tlsSerialized)
        var next = secretTree
        let message = try PrivateMessage.protect(authenticated, secretTree: &next, senderDataSecret: epochSecrets.senderDataSecret,
                                                 padTo: padTo, rng: rng)
        secretTree = next
        return MLSFramedMessage.privateMessage(message).tlsSerialized
    }

    /// Sends a proposal (e.g. SelfRemove) as a PublicMessage (draft-ietf-mls-extensions §6.3
    /// requires it for SelfRemove) or PrivateMessage, caches it for this member's own commits,
    /// and returns the serialized MLSMessage and its reference.
    package mutating func propose(_ proposal: Proposal, wireFormat: WireFormat = .publicMessage, authenticatedData: [UInt8] = [],
                                 rng: RandomSource = SystemRandom()) throws -> (message: [UInt8], reference: [UInt8]) {
        guard !isRemoved else { throw MLSError(.notMember, "this member was removed from the group") }
        let contextBytes = groupContext.tlsSerialized
        let content = FramedContent(groupID: groupID, epoch: epoch, sender: .member(leafIndex: ownLeaf),
                                    authenticatedData: authenticatedData, body: .proposal(proposal.tlsSerialized))
        let authenticated = AuthenticatedContent.sign(wireFormat: wireFormat, content: content, signer: signatureKey, groupContext: contextBytes)
        var next = self
        let framed: MLSFramedMessage
        if wireFormat == .publicMessage {
            framed = .publicMessage(try PublicMessage.protect(authenticated, membershipKey: epochSecrets.membershipKey, groupContext: contextBytes))
        } else {
            framed = .privateMessage(try PrivateMessage.protect(authenticated, secretTree: &next.secretTree,
                                                                senderDataSecret: epochSecrets.senderDataSecret, rng: rng))
        }
        let reference = ProposalOrRef.makeReference(authenticatedContent: authenticated.tlsSerialized)
        next.proposalCache.append(CachedProposal(reference: reference, proposal: proposal, sender: ownLeaf))
        self = next
        return (framed.tlsSerialized, reference)
    }

    /// References of the proposals received this epoch, in arrival order: what a committer
    /// includes to honour pending SelfRemoves.
    package var pendingProposalReferences: [(reference: [UInt8], proposal: Proposal, sender: UInt32)] {
        proposalCache.map { ($0.reference, $0.proposal, $0.sender) }
    }
}
