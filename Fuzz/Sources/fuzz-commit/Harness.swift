import FuzzSupport
import InviteKitCrypto
import InviteKitMLS
import MLSFixture

// Commits (group.md §Commit) processed by Bob in the fixture group. Modes (first byte % 3):
//  0 TLS: the rest is a Commit body; it must round-trip byte for byte (canonical encoding).
//  1 signed body: Alice signs the rest as a commit body (a genuine sender signature) with no
//    confirmation tag; Bob's processCommit must refuse it: proposals and sealed secrets are
//    parsed and applied, but nothing is merged without the confirmation tag.
//  2 spliced: the genuine epoch-1 commit (correct tag) with its body replaced by the rest and
//    re-signed by Alice. Only the genuine body may apply.
//  Also, every mode hands the raw rest to Bob's session as sealed kind-445 content: only the
//  fixture's genuine sealed commit may produce an outcome (no forged AEAD/signature).
let group = MLSFixture.group
let genuine = group.nextCommit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let (mode, rest) = FuzzInput(data, size).mode(of: 3)
    switch mode {
    case 0:
        if let c = try? LegacyCommit(tlsSerialized: rest) { invariant(c.tlsSerialized == rest, "Commit encoding is not canonical") }
        if let p = try? LegacyProposal(tlsSerialized: rest) { invariant(p.tlsSerialized == rest, "Proposal encoding is not canonical") }
    case 1:
        let pt = group.alice.state.sign(contentType: .commit, body: rest)
        invariant(throwsError { try group.bob.state.processCommit(pt) }, "commit without a confirmation tag applied")
    default:
        var pt = group.alice.state.sign(contentType: .commit, body: rest)
        pt.confirmationTag = genuine.confirmationTag
        let result = Result { try group.bob.state.processCommit(pt) }
        if case .success = result { invariant(rest == genuine.body, "a commit body other than the confirmed one applied (forgery)") }
    }
    var bob = group.bob
    if let outcomes = try? bob.receive(rest, createdAt: MLSFixture.now + 10, eventID: SHA256.hash(rest)), !outcomes.isEmpty {
        // Only Alice's genuine sealed commit can open and authenticate.
        invariant(rest == group.commitSealed, "sealed bytes other than a member's produced outcomes: \(outcomes)")
    }
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    // The fixture's own commit must apply, or mode 2 tests nothing.
    guard case .applied = try! group.bob.state.processCommit(genuine) else { fatalError("fixture commit did not apply") }
    emitSeedsIfAsked {
        [("fixture-commit-tls", [0] + genuine.body), ("fixture-commit-signed", [1] + genuine.body),
         ("fixture-commit-spliced", [2] + genuine.body), ("fixture-sealed", [0] + group.commitSealed)]
    }
    return 0
}
