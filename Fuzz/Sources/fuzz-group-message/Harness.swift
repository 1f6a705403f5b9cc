import FuzzSupport
import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr
import MLSFixture

// Kind-445 group messages, received by Bob in the fixture group. Modes (first byte % 3):
//  0 raw: the rest is sealed content (nonce || ChaCha20-Poly1305) for GroupState.open and
//    GroupSession.receive, and a GroupEventPlaintext that must round-trip byte for byte.
//  1 plaintext: the rest is a GroupEventPlaintext, encrypted by the harness under the epoch key,
//    so authentication (epoch, sender index, signature) sees hostile fields.
//  2 body: Alice signs and encrypts the rest as an application body, wrapped in a kind-445
//    event; Bob receives the event.
// Invariants: mode 0 opens only the fixture's genuine sealed message; mode 1 opens only
// plaintexts whose signature verifies for the claimed sender, and a changed body then fails; mode 2 yields exactly one application from Alice
// with the same body, and at the Nostr level a message only when the inner event is an unsigned
// event by Alice with a correct id (a rumor claiming another author is never a message), and
// always when it is one (no false rejection).
let group = MLSFixture.group
let alice = group.alice
let bob = group.bob

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let (mode, rest) = FuzzInput(data, size).mode(of: 3)
    switch mode {
    case 0:
        if let pt = try? GroupEventPlaintext(tlsSerialized: rest) { invariant(pt.tlsSerialized == rest, "plaintext encoding is not canonical") }
        // Only content a member really sealed opens: the fixture's own application message.
        let genuine = rest == group.applicationSealed
        invariant(throwsError { try bob.state.open(rest) } != genuine, "sealed content opened that no member sealed (or genuine failed)")
        var s = bob
        if let out = try? s.receive(rest, createdAt: MLSFixture.now + 5, eventID: SHA256.hash(rest)), !out.isEmpty {
            invariant(genuine, "unauthenticated content produced outcomes")
        }
    case 1:
        guard let pt = try? GroupEventPlaintext(tlsSerialized: rest),
              let sealed = try? alice.state.encrypt(pt, rng: SeededRandom(seed: 2)) else { return 0 }
        guard let (sender, opened) = try? bob.state.open(sealed) else { return 0 }
        invariant(opened == pt, "opened plaintext differs")
        invariant(Int(pt.senderIndex) < bob.state.members.count && bob.state.members[Int(pt.senderIndex)] == sender, "sender index")
        invariant(pt.epoch == bob.state.epoch, "wrong epoch accepted")
        var t = pt
        t.body.append(0)
        if let s2 = try? alice.state.encrypt(t, rng: SeededRandom(seed: 2)) {
            invariant(throwsError { try bob.state.open(s2) }, "changed body still authenticates (forgery)")
        }
    default:
        let rng = SeededRandom(seed: 3)
        guard let sealed = try? alice.encryptApplication(rest, rng: rng) else { return 0 }
        var s = bob
        let out = try? s.receive(sealed, createdAt: MLSFixture.now + 5, eventID: SHA256.hash(sealed))
        invariant(out == [.application(sender: MLSFixture.aliceID, body: rest, epoch: bob.state.epoch)], "application not delivered as sent")
        guard let event = try? GroupEvent.make(sealed: sealed, nostrGroupID: bob.state.nostrGroupID, now: MLSFixture.now, rng: rng) else { return 0 }
        var s2 = bob
        guard let outcomes = try? s2.receive(event: event), outcomes.count == 1 else {
            invariant(false, "kind-445 event not processed"); return 0
        }
        let inner = try? NostrEvent(json: rest, requireSignature: false)
        let genuine = inner.map { $0.sig == nil && $0.pubkey == FixedKeys.author.publicKey.hex && $0.computedId == $0.id } ?? false
        switch outcomes[0] {
        case .message(let ev, _):
            invariant(ev.pubkey == FixedKeys.author.publicKey.hex && ev.sig == nil && ev.computedId == ev.id, "unauthenticated inner event accepted")
            invariant(genuine, "message accepted that the rules reject")
        case .rejectedMessage:
            invariant(!genuine, "genuine inner event rejected")
        default:
            invariant(false, "application became \(outcomes[0])")
        }
    }
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    emitSeedsIfAsked {
        let body = EventTemplate(kind: 9, content: "hello").rumor(pubkey: FixedKeys.author.publicKey, now: MLSFixture.now).jsonBytes
        let pt = alice.state.sign(contentType: .application, body: body)
        return [("fixture-sealed", [0] + group.applicationSealed), ("fixture-plaintext", [1] + pt.tlsSerialized),
                ("fixture-body", [2] + body)]
    }
    return 0
}
