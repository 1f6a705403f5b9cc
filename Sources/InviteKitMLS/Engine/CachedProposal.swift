/// A proposal received in the current epoch, kept by its reference.
struct CachedProposal: Sendable {
    var reference: [UInt8]
    var proposal: Proposal
    var sender: UInt32
}
