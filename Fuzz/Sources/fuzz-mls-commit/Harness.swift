import EngineFixture
import FuzzSupport
import InviteKitCrypto
@testable import InviteKitMLS

// Hostile commits and Welcomes against the RFC 9420 engine (RFC 9420 §12.4.2, §12.4.3.1). Modes
// (first byte % 4):
//  0 message: the rest is an MLSMessage processed by Bob at epoch 1. Only the fixture's genuine
//    messages are accepted; the genuine commit lands exactly in Alice's epoch-2 GroupContext.
//  1 signed commit: Alice genuinely signs a PublicMessage commit whose body is the rest after
//    32 bytes, with those 32 bytes as confirmation tag and a correct membership tag (the harness
//    reads Bob's membership key through @testable). Signature and membership tag pass, so the
//    Commit parser, proposal validation and UpdatePath decryption all see hostile input; the
//    confirmation tag cannot be right, so nothing may apply.
//  2 signed proposal: as 1 with a proposal body; accepted only if it is a canonical Proposal.
//  3 Welcome: the rest is an MLSMessage joined with Carol's KeyPackage. A join succeeds only
//    into the GroupContext Alice's commit made.
// Every refused message leaves Bob's state byte-identical.
let g = EngineFixture.group
let bob = g.bob.state
let bobBefore = EngineFixture.fingerprint(bob)
let aliceLeaf = g.alice.state.ownLeaf

func signed(_ body: FramedContent.Body, tag: [UInt8]?) -> [UInt8] {
    let content = FramedContent(groupID: bob.groupID, epoch: bob.epoch, sender: .member(leafIndex: aliceLeaf), body: body)
    var auth = AuthenticatedContent.sign(wireFormat: .publicMessage, content: content, signer: g.aliceSigner,
                                         groupContext: bob.groupContext.tlsSerialized)
    auth.auth.confirmationTag = tag
    let m = try! PublicMessage.protect(auth, membershipKey: bob.epochSecrets.membershipKey, groupContext: bob.groupContext.tlsSerialized)
    return MLSFramedMessage.publicMessage(m).tlsSerialized
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let (mode, rest) = FuzzInput(data, size).mode(of: 4)
    if mode == 3 {
        if let joined = try? MLSGroupState.join(welcomeMessage: rest, bundle: g.carolBundle) {
            invariant(joined.groupContext.tlsSerialized == g.contextAfterCommit, "a Welcome put Carol into a group Alice did not make")
        }
        return 0
    }
    let message: [UInt8]
    switch mode {
    case 0: message = rest
    case 1: message = signed(.commit(Array(rest.dropFirst(32))), tag: Array(rest.prefix(32)))
    default: message = signed(.proposal(rest), tag: nil)
    }
    var state = bob
    switch Result(catching: { try state.process(message) }) {
    case .success(let outcome):
        switch mode {
        case 0:
            invariant([g.application, g.commit, g.proposal].contains(message), "a message other than the fixture's was accepted: \(outcome)")
            if message == g.commit { invariant(state.groupContext.tlsSerialized == g.contextAfterCommit, "genuine commit landed elsewhere") }
        case 1:
            invariant(false, "a commit without the right confirmation tag applied: \(outcome)")
        default:
            guard case .proposal(_, let p, let sender) = outcome else { fatalError("INVARIANT BROKEN: proposal body gave \(outcome)") }
            invariant(sender == aliceLeaf && p.tlsSerialized == rest, "accepted proposal is not the signed one, canonically")
            invariant(state.epoch == bob.epoch, "a proposal changed the epoch")
        }
    case .failure:
        invariant(EngineFixture.fingerprint(state) == bobBefore, "a refused message changed the state")
    }
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    var s = bob
    guard case .commit = try! s.process(g.commit) else { fatalError("fixture commit did not apply") }
    guard (try? MLSGroupState.join(welcomeMessage: g.welcomeForCarol, bundle: g.carolBundle)) != nil else { fatalError("fixture Welcome did not join") }
    let genuineCommit: [UInt8] = {
        guard case .privateMessage(let m) = try! MLSFramedMessage(tlsSerialized: g.commit, parser: .standard) else { return [] }
        var st = bob
        let auth = try! m.unprotect(groupID: st.groupID, epoch: st.epoch, secretTree: &st.secretTree, senderDataSecret: st.epochSecrets.senderDataSecret)
        guard case .commit(let body) = auth.content.body else { return [] }
        return (auth.auth.confirmationTag ?? []) + body
    }()
    emitSeedsIfAsked {
        [("fixture-commit", [0] + g.commit), ("fixture-proposal", [0] + g.proposal),
         ("fixture-signed-commit", [1] + genuineCommit), ("fixture-welcome", [3] + g.welcomeForCarol)]
    }
    return 0
}
