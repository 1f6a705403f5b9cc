import EngineFixture
import FuzzSupport
import InviteKitCrypto
@testable import InviteKitMLS

// PrivateMessage unprotection (RFC 9420 §6.3) by Bob's engine state at epoch 1. Modes (first
// byte % 3):
//  0 raw: the rest is a whole MLSMessage.
//  1 ciphertext: Alice's genuine application PrivateMessage with its ciphertext replaced by the rest.
//  2 sender data: the same with encrypted_sender_data = the rest's first n bytes (n = its first
//    byte) and ciphertext = what follows.
// Invariants: only the fixture's genuine messages (application, commit, self-remove proposal)
// are accepted, the application one as Alice's exact payload; a refused message leaves Bob's state
// byte-identical (serialized(), which covers the secret tree's ratchets).
let g = EngineFixture.group
let bob = g.bob.state
let bobBefore = EngineFixture.fingerprint(bob)
let genuine: PrivateMessage = {
    guard case .privateMessage(let m) = try! MLSFramedMessage(tlsSerialized: g.application, parser: .standard) else { fatalError("not private") }
    return m
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let (mode, rest) = FuzzInput(data, size).mode(of: 3)
    var message = rest
    switch mode {
    case 0: break
    case 1:
        var m = genuine
        m.ciphertext = rest
        message = MLSFramedMessage.privateMessage(m).tlsSerialized
    default:
        var taker = ByteTaker(rest)
        let n = Int(taker.byte())
        var m = genuine
        m.encryptedSenderData = Array(taker.rest.prefix(n))
        m.ciphertext = Array(taker.rest.dropFirst(n))
        message = MLSFramedMessage.privateMessage(m).tlsSerialized
    }
    var state = bob
    switch Result(catching: { try state.process(message) }) {
    case .success(let outcome):
        invariant([g.application, g.commit, g.proposal].contains(message), "a message other than the fixture's was accepted: \(outcome)")
        if message == g.application {
            guard case .application(_, let identity, let text, _, let epoch) = outcome else { fatalError("INVARIANT BROKEN: application outcome") }
            invariant(identity == g.alice.state.ownIdentity && text == g.applicationPlaintext && epoch == 1, "application message altered")
        }
    case .failure:
        invariant(EngineFixture.fingerprint(state) == bobBefore, "a refused message changed the state")
    }
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    var s = bob
    guard case .application = try! s.process(g.application) else { fatalError("fixture application message did not open") }
    emitSeedsIfAsked {
        [("fixture-application", [0] + g.application), ("fixture-commit", [0] + g.commit),
         ("fixture-ciphertext", [1] + genuine.ciphertext),
         ("fixture-sender-data", [2, UInt8(genuine.encryptedSenderData.count)] + genuine.encryptedSenderData + genuine.ciphertext)]
    }
    return 0
}
